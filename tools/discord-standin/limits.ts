import type { DiscordErrorBody } from './types.js';

/* The limits Discord enforces on what a bot sends, answered with the same 400 bodies Discord uses,
 * so a bot that would be refused by Discord is refused here too. */

type Path = Array<string | number>;

export class FormErrors {
  private readonly tree: Record<string, any> = {};
  private count = 0;

  add(path: Path, code: string, message: string): void {
    let node = this.tree;
    for (const key of path) node = node[String(key)] ??= {};
    (node._errors ??= []).push({ code, message });
    this.count += 1;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  body(): DiscordErrorBody {
    return { message: 'Invalid Form Body', code: 50035, errors: this.tree };
  }
}

export const EMPTY_MESSAGE: DiscordErrorBody = { message: 'Cannot send an empty message', code: 50006 };

function maxLength(errors: FormErrors, path: Path, value: unknown, max: number, required = false): number {
  if (value === undefined || value === null) {
    if (required) errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return 0;
  }
  const text = String(value);
  if (required && text.length === 0)
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${max} in length.`);
  if (text.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return text.length;
}

function maxItems(errors: FormErrors, path: Path, value: unknown, max: number, min = 0): unknown[] {
  if (!Array.isArray(value)) return [];
  if (value.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  if (value.length < min) errors.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
  return value;
}

function customId(errors: FormErrors, path: Path, value: unknown, seen: Set<string>): void {
  maxLength(errors, path, value, 100, true);
  if (typeof value !== 'string') return;
  if (seen.has(value)) errors.add(path, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
  seen.add(value);
}

function validateEmbeds(errors: FormErrors, path: Path, embeds: unknown): void {
  let total = 0;
  maxItems(errors, path, embeds, 10).forEach((raw, i) => {
    const embed = (raw ?? {}) as Record<string, any>;
    const at = [...path, i];
    total += maxLength(errors, [...at, 'title'], embed.title, 256);
    total += maxLength(errors, [...at, 'description'], embed.description, 4096);
    total += maxLength(errors, [...at, 'footer', 'text'], embed.footer?.text, 2048);
    total += maxLength(errors, [...at, 'author', 'name'], embed.author?.name, 256);
    maxItems(errors, [...at, 'fields'], embed.fields, 25).forEach((field, j) => {
      const f = (field ?? {}) as Record<string, unknown>;
      total += maxLength(errors, [...at, 'fields', j, 'name'], f.name, 256, true);
      total += maxLength(errors, [...at, 'fields', j, 'value'], f.value, 1024, true);
    });
  });
  if (total > 6000) errors.add(path, 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
}

function validateMessageComponent(errors: FormErrors, path: Path, raw: unknown, seen: Set<string>): void {
  const component = (raw ?? {}) as Record<string, any>;
  if (component.type === 2) {
    const link = component.style === 5 || component.style === 6;
    if (!link) customId(errors, [...path, 'custom_id'], component.custom_id, seen);
    if (component.style === 5 && !component.url)
      errors.add([...path, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
    maxLength(errors, [...path, 'label'], component.label, 80);
  } else if (component.type >= 3 && component.type <= 8) {
    customId(errors, [...path, 'custom_id'], component.custom_id, seen);
    maxLength(errors, [...path, 'placeholder'], component.placeholder, 150);
    if (component.type === 3) maxItems(errors, [...path, 'options'], component.options, 25, 1);
  }
}

function validateComponents(errors: FormErrors, path: Path, components: unknown, flags: number): void {
  const seen = new Set<string>();
  if (flags & 32768) return; // components v2 layouts are not checked here
  maxItems(errors, path, components, 5).forEach((raw, i) => {
    const row = (raw ?? {}) as Record<string, any>;
    if (row.type !== 1) {
      errors.add([...path, i, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
      return;
    }
    maxItems(errors, [...path, i, 'components'], row.components, 5, 1).forEach((component, j) =>
      validateMessageComponent(errors, [...path, i, 'components', j], component, seen),
    );
  });
}

/**
 * Checks a message body (callback data, webhook or channel message). `base` prefixes error paths
 * (`['data']` for callbacks). Returns the error body, or null when Discord would accept it.
 */
export function checkMessage(body: unknown, base: Path, requireSomething: boolean): DiscordErrorBody | null {
  const data = (body ?? {}) as Record<string, any>;
  if (requireSomething) {
    const hasSomething =
      (typeof data.content === 'string' && data.content.length > 0) ||
      (Array.isArray(data.embeds) && data.embeds.length > 0) ||
      (Array.isArray(data.components) && data.components.length > 0) ||
      (Array.isArray(data.attachments) && data.attachments.length > 0) ||
      (Array.isArray(data.sticker_ids) && data.sticker_ids.length > 0) ||
      data.poll !== undefined;
    if (!hasSomething) return EMPTY_MESSAGE;
  }
  const errors = new FormErrors();
  maxLength(errors, [...base, 'content'], data.content, 2000);
  validateEmbeds(errors, [...base, 'embeds'], data.embeds);
  validateComponents(errors, [...base, 'components'], data.components, Number(data.flags ?? 0));
  return errors.empty ? null : errors.body();
}

function validateModalInput(errors: FormErrors, path: Path, raw: unknown, seen: Set<string>, legacy: boolean): void {
  const input = (raw ?? {}) as Record<string, any>;
  if (input.type === 4) {
    customId(errors, [...path, 'custom_id'], input.custom_id, seen);
    if (input.style !== 1 && input.style !== 2)
      errors.add([...path, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2}.');
    if (legacy) maxLength(errors, [...path, 'label'], input.label, 45, true);
    maxLength(errors, [...path, 'value'], input.value, 4000);
    maxLength(errors, [...path, 'placeholder'], input.placeholder, 100);
    for (const key of ['min_length', 'max_length'] as const) {
      const n = input[key];
      if (n !== undefined && (typeof n !== 'number' || n < 0 || n > 4000)) {
        errors.add([...path, key], 'NUMBER_TYPE_MAX', 'Must be between 0 and 4000.');
      }
    }
  } else if (!legacy && input.type >= 3 && input.type <= 8) {
    customId(errors, [...path, 'custom_id'], input.custom_id, seen);
    if (input.type === 3) maxItems(errors, [...path, 'options'], input.options, 25, 1);
  } else if (!legacy && (input.type === 19 || (input.type >= 21 && input.type <= 23))) {
    customId(errors, [...path, 'custom_id'], input.custom_id, seen);
  } else {
    errors.add([...path, 'type'], 'COMPONENT_TYPE_INVALID', 'The specified component type is invalid in this context');
  }
}

/** Checks the data of a type 9 (modal) callback. */
export function checkModal(body: unknown): DiscordErrorBody | null {
  const data = (body ?? {}) as Record<string, any>;
  const errors = new FormErrors();
  const seen = new Set<string>();
  maxLength(errors, ['data', 'title'], data.title, 45, true);
  maxLength(errors, ['data', 'custom_id'], data.custom_id, 100, true);
  if (!Array.isArray(data.components))
    errors.add(['data', 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
  maxItems(errors, ['data', 'components'], data.components, 5, 1).forEach((raw, i) => {
    const top = (raw ?? {}) as Record<string, any>;
    const path = ['data', 'components', i];
    if (top.type === 1) {
      maxItems(errors, [...path, 'components'], top.components, 1, 1).forEach((input, j) =>
        validateModalInput(errors, [...path, 'components', j], input, seen, true),
      );
    } else if (top.type === 18) {
      maxLength(errors, [...path, 'label'], top.label, 45, true);
      maxLength(errors, [...path, 'description'], top.description, 100);
      if (!top.component) errors.add([...path, 'component'], 'BASE_TYPE_REQUIRED', 'This field is required');
      else validateModalInput(errors, [...path, 'component'], top.component, seen, false);
    } else if (top.type !== 10) {
      errors.add(
        [...path, 'type'],
        'COMPONENT_TYPE_INVALID',
        'The specified component type is invalid in this context',
      );
    }
  });
  return errors.empty ? null : errors.body();
}

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function validateOptions(errors: FormErrors, path: Path, options: unknown): void {
  let optionalSeen = false;
  const names = new Set<string>();
  maxItems(errors, path, options, 25).forEach((raw, i) => {
    const option = (raw ?? {}) as Record<string, any>;
    const at = [...path, i];
    if (typeof option.name !== 'string' || !NAME.test(option.name) || option.name !== option.name.toLowerCase()) {
      errors.add([...at, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    } else if (names.has(option.name)) {
      errors.add([...at, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', 'Option name already exists');
    } else names.add(option.name);
    maxLength(errors, [...at, 'description'], option.description, 100, true);
    maxItems(errors, [...at, 'choices'], option.choices, 25);
    if (option.type === 1 || option.type === 2) validateOptions(errors, [...at, 'options'], option.options);
    else if (option.required) {
      if (optionalSeen)
        errors.add(
          at,
          'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          'Required options must be placed before non-required options',
        );
    } else optionalSeen = true;
  });
}

/** Checks a bulk-overwrite body (array of commands). */
export function checkCommands(body: unknown): DiscordErrorBody | null {
  const errors = new FormErrors();
  if (!Array.isArray(body)) {
    errors.add([], 'BASE_TYPE_ARRAY', 'Must be an array');
    return errors.body();
  }
  const names = new Set<string>();
  maxItems(errors, [], body, 100).forEach((raw, i) => {
    const command = (raw ?? {}) as Record<string, any>;
    const type = command.type ?? 1;
    const name = command.name;
    const chatInput = type === 1;
    if (
      typeof name !== 'string' ||
      (chatInput ? !NAME.test(name) || name !== name.toLowerCase() : name.length < 1 || name.length > 32)
    ) {
      errors.add([i, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    } else if (names.has(`${type}:${name}`)) {
      errors.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
    } else names.add(`${type}:${name}`);
    if (chatInput) maxLength(errors, [i, 'description'], command.description, 100, true);
    validateOptions(errors, [i, 'options'], command.options);
  });
  return errors.empty ? null : errors.body();
}
