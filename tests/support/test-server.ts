import { createServer, type RequestListener, type Server } from "node:http";

/**
 * An HTTP server for tests (the app under test, a fake outside service) that never closes an idle
 * kept-alive connection itself: closed by the server just as a client sends its next request on it,
 * the request fails with "socket hang up" (nodejs/node#47130). Playwright's request client keeps
 * its connections for as long as the browser context lives, with no idle limit of its own, and the
 * browser tests keep contexts from test to test, so a sign-in about 5 s (Node's default) after the
 * last one could land on a connection being closed. Whoever stops the server closes every connection.
 */
export function createTestServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = 0; // 0: no idle timeout
  return server;
}
