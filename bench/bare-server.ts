/**
 * A bare `node:http` server for bench/http.ts's `--bare` baseline: it answers each GET of the
 * paths in a JSON file with the very bytes and headers recorded from the shop (compressed body
 * included), and 404 otherwise. Nothing else: what any Node server costs to send those bytes.
 *
 *   node bench/bare-server.ts FILE PORT
 *
 * FILE: { "responses": { "/path": { "headers": [[name, value], …], "body": base64 } } }.
 * Prints "ready" once listening; stops on SIGTERM.
 */
import { readFileSync } from "node:fs";
import http from "node:http";

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("usage: node bench/bare-server.ts FILE PORT");
type Recorded = { headers: Array<[string, string]>; body: string };
const recorded = JSON.parse(readFileSync(file, "utf8")) as { responses: Record<string, Recorded> };
const responses = new Map(
  Object.entries(recorded.responses).map(([p, r]) => [
    p,
    { headers: r.headers.flat(), body: Buffer.from(r.body, "base64") },
  ]),
);

const server = http.createServer((req, res) => {
  const response = req.method === "GET" ? responses.get(req.url ?? "") : undefined;
  if (!response) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, response.headers);
  res.end(response.body);
});
// As the shop's server (its Keep-Alive header says the same).
server.keepAliveTimeout = 65_000;
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
