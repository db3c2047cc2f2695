/** What a catalogue write answers: the row, or the HTTP status and the errors to show at the fields. */
export type CatalogueResult<T> = { ok: true; value: T } | { ok: false; status: number; errors: Record<string, string> };

export const ok = <T>(value: T): CatalogueResult<T> => ({ ok: true, value });
export const fail = <T>(status: number, errors: Record<string, string>): CatalogueResult<T> => ({
  ok: false,
  status,
  errors,
});

export const NOT_FOUND = { form: "Not found." };
