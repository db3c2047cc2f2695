import type { LegalSection } from "./content/legal-section";

/** Renders a legal text: used by the public legal pages and by the sign-up acceptance steps. */
export function LegalDocument({ sections, headingLevel = 2 }: { sections: LegalSection[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="legal">
      {sections.map((section) => (
        <section key={section.id} aria-labelledby={`legal-${section.id}`}>
          <Heading id={`legal-${section.id}`}>{section.heading}</Heading>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items ? (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}

export function formatLastUpdated(isoDate: string): string {
  return new Intl.DateTimeFormat("en-CA", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}
