import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import type { LegalSection } from "~/public-pages/content/legal-section";
import { formatLastUpdated, LegalDocument } from "~/public-pages/legal-document";

/**
 * Steps 3 and 4: the legal text in a scrollable region keyboard users can scroll, and Agree.
 * With JavaScript, Agree waits until the end of the text has been in view; the server renders it
 * enabled, so without JavaScript (or without IntersectionObserver) nobody is stranded.
 */
export function LegalAcceptance({
  id,
  title,
  sections,
  lastUpdated,
  formErrors,
}: {
  id: string;
  title: string;
  sections: LegalSection[];
  lastUpdated: string;
  formErrors?: string[];
}) {
  const regionRef = useRef<HTMLElement>(null);
  const endRef = useRef<HTMLParagraphElement>(null);
  const [reachedEnd, setReachedEnd] = useState(true);
  const pending = useNavigation().state === "submitting";

  useEffect(() => {
    const region = regionRef.current;
    const end = endRef.current;
    if (!region || !end || typeof IntersectionObserver === "undefined") return;
    setReachedEnd(false);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setReachedEnd(true);
          observer.disconnect();
        }
      },
      { root: region },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, []);

  const hintId = `${id}-hint`;
  return (
    <>
      <ErrorSummary formErrors={formErrors} submissionKey={formErrors} />
      <p>
        Please read the {title} below. To continue your registration, scroll to the end of the text and select Agree.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus so keyboard users can scroll it */}
      <section ref={regionRef} className="legal-scroll" aria-labelledby={`${id}-title`} tabIndex={0}>
        <h2 id={`${id}-title`}>{title}</h2>
        <p className="meta-line">Last updated {formatLastUpdated(lastUpdated)}</p>
        <LegalDocument sections={sections} headingLevel={3} />
        <p ref={endRef} className="legal-scroll__end">
          End of the {title}.
        </p>
      </section>
      <Form method="post" id={id} className="stack">
        {reachedEnd ? null : (
          <p className="field__hint" id={hintId}>
            Agree becomes available once you have scrolled to the end of the {title}.
          </p>
        )}
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={!reachedEnd || pending}
            aria-describedby={reachedEnd ? undefined : hintId}
          >
            Agree
          </button>
        </div>
      </Form>
    </>
  );
}
