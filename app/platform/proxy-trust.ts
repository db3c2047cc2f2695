import type { Environment } from "./env.server";

/**
 * Which proxy in front of the app may tell us the client's address and protocol, decided once at
 * start from TRUST_PROXY / TRUSTED_PROXY_HOPS. Without one, forwarding headers are the client's own
 * words and are ignored: a client can never choose the address it is counted under.
 */
export type ProxyTrust = { kind: "none" } | { kind: "fly" } | { kind: "hops"; hops: number };

export function proxyTrustOf(env: Pick<Environment, "TRUST_PROXY" | "TRUSTED_PROXY_HOPS">): ProxyTrust {
  if (env.TRUST_PROXY === "fly") return { kind: "fly" };
  if (env.TRUSTED_PROXY_HOPS) return { kind: "hops", hops: env.TRUSTED_PROXY_HOPS };
  return { kind: "none" };
}

type Headers = Record<string, string | string[] | undefined>;

/** A header's comma-separated entries, however many times it was sent. */
function entries(headers: Headers, name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(",") : value).split(",").map((entry) => entry.trim());
}

/**
 * The entry our proxies wrote: `hops` from the right (each of our proxies appends what it saw).
 * Fewer entries than proxies means the request did not come through all of them: none is ours.
 */
function fromTheRight(list: string[], hops: number): string | undefined {
  return list.length >= hops ? list[list.length - hops] || undefined : undefined;
}

/** The client's address: Fly-Client-IP behind Fly, the trusted X-Forwarded-For entry, else the socket's. */
export function forwardedClientAddress(headers: Headers, socketAddress: string | undefined, trust: ProxyTrust): string {
  let forwarded: string | undefined;
  if (trust.kind === "fly") forwarded = entries(headers, "fly-client-ip").at(-1) || undefined;
  else if (trust.kind === "hops") forwarded = fromTheRight(entries(headers, "x-forwarded-for"), trust.hops);
  return forwarded ?? socketAddress ?? "unknown";
}

/** True when the client reached us over HTTPS: a TLS socket, or a trusted proxy's X-Forwarded-Proto. */
export function forwardedHttps(headers: Headers, encrypted: boolean, trust: ProxyTrust): boolean {
  if (encrypted) return true;
  if (trust.kind === "none" || headers["x-forwarded-proto"] === undefined) return false;
  const list = entries(headers, "x-forwarded-proto");
  // Fly's proxy sets it (the last entry is Fly's); a chain of proxies either sets it once at the edge
  // (one entry) or each appends (the edge's is `hops` from the right).
  const proto = trust.kind === "fly" ? list.at(-1) : (fromTheRight(list, trust.hops) ?? list[0]);
  return proto?.toLowerCase() === "https";
}
