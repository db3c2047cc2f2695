import { useEffect, useState } from "react";
import { useFetchers, useLocation, useNavigation } from "react-router";

/**
 * Slim bar across the top while a navigation, form submission or fetch is pending (spec section 7).
 * Rendered only after hydration, so it is absent without JavaScript. The status text is announced
 * politely; the bar itself is decoration.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const location = useLocation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const [hydrated, setHydrated] = useState(false);
  // Short requests should not flash: show the bar only once a request has lasted a moment.
  const [visible, setVisible] = useState(false);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 150);
    return () => clearTimeout(timer);
  }, [busy]);

  if (!hydrated) return null;
  return (
    // data-location names the location whose page is on screen: React renders a navigation in a
    // transition, after the router is already idle, and the browser tests wait for it.
    <div className="progress" data-location={location.key}>
      <div className={visible ? "progress__bar progress__bar--active" : "progress__bar"} aria-hidden="true" />
      <p className="visually-hidden" role="status" aria-live="polite">
        {visible ? "Loading…" : ""}
      </p>
    </div>
  );
}
