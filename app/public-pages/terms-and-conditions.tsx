import type { PageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import { lastUpdated, legalSections } from "./content/terms-and-conditions";
import { formatLastUpdated, LegalDocument } from "./legal-document";

// Works without JavaScript: a first visit gets none (issue 20).
export const handle: PageScripts = { hydrate: false };

export function meta() {
  return [{ title: pageTitle("Terms & Conditions") }];
}

export default function TermsAndConditions() {
  return (
    <article className="prose">
      <h1>Terms &amp; Conditions</h1>
      <p className="meta-line">Last updated {formatLastUpdated(lastUpdated)}</p>
      <LegalDocument sections={legalSections} />
    </article>
  );
}
