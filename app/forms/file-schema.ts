import { z } from "zod";

// The file inputs of every form. An empty file input sends a nameless, empty file, and a script may
// leave the part out altogether: both are no file. The input is optional on purpose: a field whose
// input is not optional makes Zod refuse a missing part with its own "expected nonoptional" message
// before the field's rule runs.

/** The one file sent, or undefined when none was; more than one is refused with `several`. */
function oneFile(several: string, missing: string | undefined) {
  return z
    .unknown()
    .optional()
    .transform((value, context): File | undefined => {
      if (Array.isArray(value) && value.length > 1) {
        context.addIssue({ code: "custom", message: several });
        return z.NEVER;
      }
      const file = Array.isArray(value) ? value[0] : value;
      if (file instanceof File && !(file.name === "" && file.size === 0)) return file;
      if (missing === undefined) return undefined;
      context.addIssue({ code: "custom", message: missing });
      return z.NEVER;
    });
}

/** A file the form may go without. */
export const optionalFileField = (messages: { several: string }) => oneFile(messages.several, undefined);

/** A file the form needs: none is refused with `missing`. */
export const fileField = (messages: { several: string; missing: string }) =>
  // Never undefined here (oneFile refused it): the transform only says so to the type.
  oneFile(messages.several, messages.missing).transform((file) => file as File);
