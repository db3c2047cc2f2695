/** A reference-data option: a stable code plus its display name. */
export interface CodeName {
  code: string;
  name: string;
}
