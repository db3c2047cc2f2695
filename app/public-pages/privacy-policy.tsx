import { pageTitle } from "~/layout/page-title";
import { lastUpdated, legalSections } from "./content/privacy-policy";
import { formatLastUpdated, LegalDocument } from "./legal-document";

export function meta() {
  return [{ title: pageTitle("Privacy Policy") }];
}

export default function PrivacyPolicy() {
  return (
    <article className="prose">
      <h1>Privacy Policy</h1>
      <p className="meta-line">Last updated {formatLastUpdated(lastUpdated)}</p>
      <LegalDocument sections={legalSections} />
    </article>
  );
}
