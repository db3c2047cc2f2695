import { z } from "zod";

// Ids in forms and API payloads: a positive integer (a PostgreSQL integer), given as a JSON number or
// as a string of digits. Nothing else is coerced: `true`, `1.5`, `"0x2"`, `" 3 "` or `[]` are not ids
// (z.coerce.number took `true` as 1).

export const MAX_ID = 2_147_483_647;

export function idField(message: string) {
  return z
    .union(
      [
        z.int(),
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().int(message).positive(message).max(MAX_ID, message));
}
