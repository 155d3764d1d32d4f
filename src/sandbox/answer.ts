/** A response before it is written: trickling and faults need it whole. */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export function jsonAnswer(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) };
}

/** The spec's 401 body, byte for byte. */
export const UNAUTHORISED: Answer = jsonAnswer(401, { status: 401, error: 'Unauthorised' });
