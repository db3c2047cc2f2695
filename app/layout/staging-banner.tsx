/**
 * Shown on every page of a production server started with DEV_OUTBOX=on (a staging copy), so that
 * nobody mistakes it for the real marketplace: a labelled region with words, not a colour alone.
 */
export function StagingBanner() {
  return (
    <section className="staging-banner" aria-label="Staging">
      <p className="staging-banner__text">
        <strong>Staging copy</strong>: not the real marketplace. Text messages and e-mail may be kept in the development
        outbox instead of being sent, and cards may be taken by the test card provider.
      </p>
    </section>
  );
}
