import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence: a state-changing request that a browser made from another origin is refused.
 * Browsers send Origin (and Sec-Fetch-Site) with every POST; scripts using a bearer token send
 * neither and are not affected. SameSite=Lax cookies are the second layer.
 */
export function refuseCrossOriginWrites(appUrl: string): RequestHandler {
  const appOrigin = new URL(appUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const fetchSite = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    const crossSite = fetchSite === "cross-site" || fetchSite === "same-site";
    const foreignOrigin = origin !== undefined && origin !== appOrigin && origin !== ownOrigin;
    if (!crossSite && !foreignOrigin) return next();
    const message = "Requests from other sites are not allowed.";
    if (req.path.startsWith("/api/")) {
      res.status(403).json({ errors: { form: message } });
    } else {
      res.status(403).type("text/plain").send(message);
    }
  };
}
