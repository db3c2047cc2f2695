// Reference for bench/http.mjs and bench/catalogue.mjs: a plain node:http server that answers each
// benchmarked path with fixed bytes (the app's own answer, captured once).
// Usage: node bench/reference-server.mjs <pages.json> where pages.json maps a path to a file holding
// the bytes, or to {"file", "contentType"} (default HTML). Prints the port it listens on.
import { readFileSync } from "node:fs";
import http from "node:http";

const pages = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], "utf8"))).map(([path, entry]) => {
    const { file, contentType = "text/html; charset=utf-8" } = typeof entry === "string" ? { file: entry } : entry;
    return [path, { body: readFileSync(file), contentType }];
  }),
);

const server = http.createServer((req, res) => {
  const page = pages.get(req.url);
  if (!page) {
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("not found");
    return;
  }
  res.writeHead(200, { "Content-Type": page.contentType, "Content-Length": page.body.length });
  res.end(page.body);
});
server.keepAliveTimeout = 65_000; // as server.js
server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${server.address().port}`);
});
process.on("SIGTERM", () => process.exit(0));
