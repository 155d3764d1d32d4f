// A small check of an answer against an OpenAPI 3.1 document: the parts of JSON Schema the vote
// API's document uses ($ref, type, properties, required, additionalProperties, items, enum,
// minimum, maximum, pattern, format date-time), its declared statuses and headers. A keyword it
// does not know fails the check, so the document cannot outgrow it unnoticed.

type Schema = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, { responses: Record<string, Schema> }>>; components: Schema };

const KNOWN = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'minimum',
  'maximum',
  'pattern',
  'format',
  'description',
]);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function resolve(doc: Doc, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  let at: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) at = (at as Record<string, unknown>)[part];
  if (at === undefined) throw new Error(`unresolved ${ref}`);
  return resolve(doc, at as Schema);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Where `value` breaks `schema`, each problem with its JSON path. */
export function schemaProblems(doc: Doc, schema: Schema, value: unknown, where = '$'): string[] {
  const s = resolve(doc, schema);
  const unknown = Object.keys(s).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) return [`${where}: the check does not know ${unknown.join(', ')}`];
  const problems: string[] = [];
  const actual = typeOf(value);
  if (s.type !== undefined) {
    const types = ([] as unknown[]).concat(s.type);
    const fits = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!fits) return [`${where}: ${actual}, not ${types.join(' or ')}`];
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value)) problems.push(`${where}: ${String(value)} not in the enum`);
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) problems.push(`${where}: ${value} < ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) problems.push(`${where}: ${value} > ${s.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value))
      problems.push(`${where}: "${value}" does not match ${s.pattern}`);
    if (s.format === 'date-time' && (!ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))))
      problems.push(`${where}: "${value}" is not a date-time`);
  }
  if (actual === 'array' && s.items)
    (value as unknown[]).forEach((item, i) =>
      problems.push(...schemaProblems(doc, s.items as Schema, item, `${where}[${i}]`)),
    );
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[])
      if (!(key in object)) problems.push(`${where}: ${key} is missing`);
    for (const [key, item] of Object.entries(object)) {
      if (properties[key]) problems.push(...schemaProblems(doc, properties[key], item, `${where}.${key}`));
      else if (s.additionalProperties === false) problems.push(`${where}: ${key} is not in the schema`);
    }
  }
  return problems;
}

/** An answer as a test saw it. */
export interface SeenAnswer {
  method: string;
  /** The request's path, query left out. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Where the answer breaks the document: an undocumented path, method or status, a declared header
 * missing, a content type other than JSON, or a body its schema refuses.
 */
export function answerProblems(doc: Doc, answer: SeenAnswer): string[] {
  const template = Object.keys(doc.paths).find((path) =>
    new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`).test(answer.path),
  );
  if (!template) return [`${answer.path}: no such path in the document`];
  const operation = doc.paths[template]![answer.method.toLowerCase()];
  if (!operation) return [`${answer.method} ${template}: no such operation`];
  const response = operation.responses[String(answer.status)];
  if (!response) return [`${answer.method} ${template}: status ${answer.status} is not documented`];
  const problems: string[] = [];
  for (const header of Object.keys((response.headers ?? {}) as object))
    if (!answer.headers.has(header)) problems.push(`${answer.status}: header ${header} is missing`);
  const content = (response.content ?? {}) as Record<string, { schema: Schema }>;
  const type = answer.headers.get('content-type') ?? '';
  const media = content[type.split(';')[0]!.trim()];
  if (!media) return [...problems, `${answer.status}: content type ${type} is not documented`];
  return [...problems, ...schemaProblems(doc, media.schema, answer.body)];
}
