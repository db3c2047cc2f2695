import { useEffect, useState } from "react";

/** True once React runs in the browser: the server render shows what works without JavaScript. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
