import { z } from "zod";

// The one text type of every schema that takes free text (forms and API payloads alike). It refuses
// what no person types and PostgreSQL partly refuses to store (NUL answered a 500 before): control
// characters (C0, DEL, C1) and lone UTF-16 surrogates. Multi-line fields keep tab, newline and
// carriage return; single-line fields refuse them too (browsers never put a newline in one).

export const DISALLOWED_CHARACTERS = "This field contains characters that are not allowed.";

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Whether the text holds a control character (tab and line breaks allowed when multi-line) or a lone surrogate. */
export function hasDisallowedCharacters(value: string, { multiline = false } = {}): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20) {
      if (multiline && (code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN)) continue;
      return true;
    }
    if (code >= 0x7f && code <= 0x9f) return true;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      index += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return true;
    }
  }
  return false;
}

type TextOptions = {
  /** The message when the value is missing or not a string. */
  error?: string;
  /** Textareas: tab, newline and carriage return are kept. */
  multiline?: boolean;
  /** Trimmed by default; passwords and tokens are taken as sent. */
  trim?: boolean;
};

/**
 * A string refused with the field message when it holds a character that is not allowed. Chain
 * `.min()`, `.max()`, `.regex()` as on `z.string()`.
 */
export function textField({ error, multiline = false, trim = true }: TextOptions = {}) {
  const base = z.string(error === undefined ? undefined : { error });
  return (trim ? base.trim() : base).refine((value) => !hasDisallowedCharacters(value, { multiline }), {
    message: DISALLOWED_CHARACTERS,
    // Reported even when a length check failed too, so the field says what is wrong with it.
    abort: true,
  });
}

/** An e-mail address: what sign-in, registration and invitations all ask for. */
export const emailField = (message = "Please enter an email address") =>
  textField({ error: message })
    .max(254, message)
    .pipe(z.email({ error: message }));
