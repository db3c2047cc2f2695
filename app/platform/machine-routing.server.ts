import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import type { DatabaseHandle } from "~db/database.server";
import { logger } from "./logger.server";
import { ownerOf } from "./rendezvous";

// Several machines, one auction (issue 33, decision 028): an auction's bids are decided fastest by one
// machine, which keeps the auction's state in memory between rounds (decision 005); spread over
// machines, each round misses the others' writes and reads again. So every machine knows the machines
// serving now (the `app_machines` table: each renews its row and deletes it when it stops; a change is
// announced on a channel) and sends each write about an auction to the one rendezvous hashing picks
// for it, over the private network. A machine that cannot be reached (it just stopped) is not waited
// for: the request is served where it landed, which is correct, only slower.

const CHANNEL = "app_machines";
/** A forwarded request carries the sender's id: never forwarded again, whatever the receiver thinks. */
export const FORWARDED_BY_HEADER = "x-forwarded-by-machine";
/** Bigger bodies are never forwarded (the bid forms are a few hundred bytes; documents go where they land). */
const MAX_FORWARDED_BODY = 1024 * 1024;

/**
 * Whether a request may be sent on: not already sent on once, and its body's length declared (as
 * browsers do for forms) and small, so it is read whole first and can still be served here if the
 * other machine cannot be reached.
 */
export function forwardable(req: IncomingMessage): boolean {
  if (req.headers[FORWARDED_BY_HEADER] || req.headers["transfer-encoding"]) return false;
  const length = Number(req.headers["content-length"] ?? 0);
  return Number.isSafeInteger(length) && length <= MAX_FORWARDED_BODY;
}

export type Machine = { id: string; url: string };

export type MachineRouting = {
  self: Machine;
  /** The machines serving now, as this one last read them (itself included). */
  machines(): readonly Machine[];
  /** The machine that takes writes about `key`, or undefined when it is this one. */
  ownerOf(key: string): Machine | undefined;
  /**
   * Sends the request (one `forwardable` says may go) to `owner` and its answer back. When the owner
   * cannot be reached before it answers, calls `serveHere(body)` with the body already read, instead.
   */
  forward(req: IncomingMessage, res: ServerResponse, owner: Machine, serveHere: (body: Buffer) => void): void;
  /**
   * Leaves the list (first thing when stopping): the others stop sending here. Requests this machine
   * is forwarding go on to their answers.
   */
  leave(): Promise<void>;
  /** After the last request: closes the connections to the other machines. */
  close(): Promise<void>;
};

export type MachineRoutingOptions = {
  /** This machine's id (FLY_MACHINE_ID on Fly). */
  machineId?: string;
  /** Where the others reach this machine. */
  url: string;
  /** How often each machine renews its row and reads the list again (default 5 s). */
  heartbeatMs?: number;
};

/** The machine's id: Fly's, or one made up for this process. */
export const machineIdOf = (env: NodeJS.ProcessEnv) =>
  env.FLY_MACHINE_ID || `${os.hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;

/** Registers this machine and keeps its list of machines current; resolves once both are done. */
export async function startMachineRouting(
  database: Pick<DatabaseHandle, "query" | "listen">,
  options: MachineRoutingOptions,
): Promise<MachineRouting> {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  // A machine that missed three renewals is gone (it crashed: a stopping one deletes its row).
  const staleSeconds = Math.ceil((3 * heartbeatMs) / 1000);
  const self: Machine = { id: options.machineId ?? machineIdOf(process.env), url: options.url };
  let known: Machine[] = [self];
  let left = false;

  const renew = () =>
    database.query(
      `insert into app_machines (id, url, seen_at) values ($1, $2, now())
       on conflict (id) do update set url = excluded.url, seen_at = now()`,
      [self.id, self.url],
    );
  const read = async () => {
    const { rows } = await database.query(
      `select id, url from app_machines where seen_at > now() - make_interval(secs => $1) order by id`,
      [staleSeconds],
    );
    if (left) return;
    const machines = rows.map((row) => ({ id: String(row.id), url: String(row.url) }));
    known = machines.some((machine) => machine.id === self.id) ? machines : [...machines, self];
  };
  const announce = () => database.query("select pg_notify($1, $2)", [CHANNEL, self.id]);

  await renew();
  const unlisten = await database.listen(
    CHANNEL,
    () => void read().catch(() => {}),
    () => void read().catch(() => {}),
  );
  await read();
  await announce();
  const heartbeat = setInterval(() => {
    if (left) return;
    renew()
      .then(read)
      .catch((error) => logger.error({ err: error }, "machine list: renewal failed"));
  }, heartbeatMs);
  heartbeat.unref();

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  const leave = async () => {
    if (left) return;
    left = true;
    clearInterval(heartbeat);
    known = [self];
    await unlisten().catch(() => {});
    await database.query("delete from app_machines where id = $1", [self.id]).catch(() => {});
    await announce().catch(() => {});
  };

  return {
    self,
    machines: () => known,
    ownerOf(key) {
      const owner = ownerOf(key, known);
      return !owner || owner.id === self.id ? undefined : owner;
    },
    forward(req, res, owner, serveHere) {
      readBody(req).then(
        (body) => {
          const target = new URL(req.url ?? "/", owner.url);
          const headers = { ...req.headers, [FORWARDED_BY_HEADER]: self.id, "content-length": String(body.length) };
          delete headers["transfer-encoding"];
          delete headers.connection;
          let answered = false;
          const upstream = http.request(target, { method: req.method, headers, agent }, (answer) => {
            answered = true;
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
            answer.pipe(res);
            answer.on("error", () => res.destroy());
          });
          upstream.on("error", () => {
            // Not reached, or gone before answering: the owner took nothing we can know of; serve here.
            if (answered) {
              res.destroy();
              return;
            }
            known = known.filter((machine) => machine.id !== owner.id);
            serveHere(body);
          });
          res.on("close", () => {
            if (!res.writableFinished) upstream.destroy();
          });
          upstream.end(body);
        },
        () => res.destroy(),
      );
    },
    leave,
    async close() {
      await leave();
      agent.destroy();
    },
  };
}

/** Headers about the connection between the two machines, not the answer. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"]);

/** The answer's own headers, as [name, value, name, value, ...] in their order (Set-Cookie kept apart). */
function endToEndHeaders(rawHeaders: string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, rawHeaders[index + 1] as string);
  }
  return kept;
}

/** The whole body: its length is declared and at most MAX_FORWARDED_BODY (see `forwardable`). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
