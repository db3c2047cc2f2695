import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";
import type { CodeName } from "./types";

// Node's entry point registers every locale, but the browser build registers
// none, so register English explicitly (harmless when already registered).
countries.registerLocale(en);

let cache: CodeName[] | undefined;

/**
 * ISO 3166-1 alpha-2 codes with their short English names from
 * i18n-iso-countries, sorted by name. Returns a fresh array each call.
 */
export function listCountries(): CodeName[] {
  if (!cache) {
    cache = Object.entries(countries.getNames("en"))
      .map(([code, name]) => ({ code, name }))
      .sort((a, b) => a.name.localeCompare(b.name, "en"));
  }
  return cache.map((c) => ({ ...c }));
}
