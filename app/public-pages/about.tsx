import { Link } from "react-router";
import type { PageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import { aboutIntro, aboutSections } from "./content/about-content";

// Works without JavaScript: a first visit gets none (issue 20).
export const handle: PageScripts = { hydrate: false };

export function meta() {
  return [{ title: pageTitle("About") }];
}

export default function About() {
  return (
    <article className="prose">
      <h1>About Upstream Marketplace</h1>
      {aboutIntro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      {aboutSections.map((section) => (
        <section key={section.id} aria-labelledby={`about-${section.id}`}>
          <h2 id={`about-${section.id}`}>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p>
        Questions? Read the <Link to="/faq">FAQ</Link> or <Link to="/signup">sign up</Link> to take part.
      </p>
    </article>
  );
}
