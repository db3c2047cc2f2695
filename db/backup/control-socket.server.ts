import { chmodSync, mkdirSync, rmdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConfigurationError } from "~/platform/env.server";

// The embedded database (PGlite) lives inside one process: a second process opening the same data
// directory would corrupt it. The process that opens a directory on disk therefore holds a Unix
// socket beside it (`<PGLITE_DIR>-control/control.sock`, in a directory only its owner may enter):
// - it is the directory's lock: a second process finds it answering and refuses to open the database;
// - it is how `npm run db:backup` asks the running app for a copy, taken by the app between two
//   transactions and streamed back.
// Protocol: the holder greets each connection with `upstream-marketplace <pid>\n`; to `backup\n` it
// answers `ok <bytes>\n` and the data directory's tarball, or `error <message>\n`.

const GREETING = "upstream-marketplace";
/** Unix socket paths are at most 107 bytes on Linux (108 with the closing NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
/** How long a holder may take to greet; one that does not is still taken to hold the directory. */
const GREETING_TIMEOUT_MS = 5_000;
/** Silence allowed while a holder takes and sends its copy. */
const BACKUP_IDLE_TIMEOUT_MS = 120_000;
/** How long a stopping holder lets a backup in progress finish. */
const RELEASE_GRACE_MS = 10_000;

/** A refusal or failure the user can act on: printed as one line, never a stack trace. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** Another process has the embedded database open; a ConfigurationError, so every entry point prints one line. */
export class DataDirectoryInUseError extends ConfigurationError {}

export function controlSocketPath(pgliteDir: string): string {
  return path.join(`${path.resolve(pgliteDir)}-control`, "control.sock");
}

function inUseMessage(pgliteDir: string, pid: number | "unknown"): string {
  const who = pid === "unknown" ? "another process (not answering)" : `another process (pid ${pid})`;
  return `The embedded database in ${pgliteDir} is open in ${who}. Stop that process first, or use npm run db:backup while it runs.`;
}

type Connection = { socket: net.Socket; chunks: AsyncIterator<Buffer>; pending: Buffer };

/** Connects to the directory's holder; undefined when there is none (no socket, or one left by a process that ended). */
async function connect(socketPath: string, idleTimeoutMs: number): Promise<Connection | undefined> {
  const socket = await new Promise<net.Socket | undefined>((resolve, reject) => {
    const attempt = net.createConnection(socketPath);
    attempt.once("connect", () => {
      attempt.removeAllListeners("error");
      resolve(attempt);
    });
    attempt.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else reject(error);
    });
  });
  if (!socket) return undefined;
  socket.setTimeout(idleTimeoutMs, () => socket.destroy(new BackupError("The app stopped answering.")));
  return { socket, chunks: socket[Symbol.asyncIterator](), pending: Buffer.alloc(0) };
}

async function readLine(connection: Connection): Promise<string> {
  for (;;) {
    const newline = connection.pending.indexOf(0x0a);
    if (newline >= 0) {
      const line = connection.pending.subarray(0, newline).toString("utf8");
      connection.pending = connection.pending.subarray(newline + 1);
      return line;
    }
    if (connection.pending.length > 4096) throw new BackupError("The control socket answered something unexpected.");
    const { value, done } = await connection.chunks.next();
    if (done) throw new BackupError("The app closed the control socket before answering.");
    connection.pending = Buffer.concat([connection.pending, value]);
  }
}

function pidOfGreeting(line: string): number | "unknown" {
  const [word, pid] = line.split(" ");
  return word === GREETING && /^\d+$/.test(pid ?? "") ? Number(pid) : "unknown";
}

/** The pid of the process holding the directory, "unknown" if it does not say, undefined if none does. */
export async function holderOf(pgliteDir: string): Promise<number | "unknown" | undefined> {
  const connection = await connect(controlSocketPath(pgliteDir), GREETING_TIMEOUT_MS).catch(() => undefined);
  if (!connection) return undefined;
  try {
    return pidOfGreeting(await readLine(connection));
  } catch {
    return "unknown";
  } finally {
    connection.socket.destroy();
  }
}

/**
 * Asks the process holding the directory for a copy and writes it to `output`. Answers false when no
 * process holds it (the caller then opens the directory itself).
 */
export async function backupFromHolder(pgliteDir: string, output: Writable): Promise<boolean> {
  const connection = await connect(controlSocketPath(pgliteDir), BACKUP_IDLE_TIMEOUT_MS);
  if (!connection) return false;
  const { socket } = connection;
  try {
    const pid = pidOfGreeting(await readLine(connection));
    if (pid === "unknown") throw new BackupError(inUseMessage(pgliteDir, pid));
    socket.write("backup\n");
    const answer = await readLine(connection);
    const size = /^ok (\d+)$/.exec(answer)?.[1];
    if (size === undefined) {
      throw new BackupError(`The app (pid ${pid}) could not take the backup: ${answer.replace(/^error /, "")}`);
    }
    const expected = Number(size);
    let received = 0;
    const { chunks, pending } = connection;
    await pipeline(async function* () {
      for (let chunk = pending; ; ) {
        received += chunk.length;
        yield chunk;
        const next = await chunks.next();
        if (next.done) break;
        chunk = next.value;
      }
      // A copy cut short (the app stopped meanwhile) must never pass for a backup.
      if (received !== expected) {
        throw new BackupError(`The app (pid ${pid}) sent ${received} of ${expected} bytes; the backup is incomplete.`);
      }
    }, output);
    return true;
  } finally {
    socket.destroy();
  }
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export type DataDirectoryHold = { release(): Promise<void> };

/**
 * Claims the data directory for this process (refusing with DataDirectoryInUseError when another
 * process holds it) and answers backup requests with `takeBackup` until released.
 */
export async function holdDataDirectory(
  pgliteDir: string,
  takeBackup: () => Promise<Blob>,
): Promise<DataDirectoryHold> {
  const socketPath = controlSocketPath(pgliteDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new ConfigurationError(
      `PGLITE_DIR's path is too long for its control socket (${socketPath}, over ${MAX_SOCKET_PATH_BYTES} bytes): use a shorter path.`,
    );
  }
  const controlDir = path.dirname(socketPath);
  // Owner only: connecting needs this directory's search permission, so no other user reaches the socket.
  mkdirSync(controlDir, { recursive: true, mode: 0o700 });
  chmodSync(controlDir, 0o700);

  // Each open connection, and whether it is taking or sending a copy.
  const connections = new Map<net.Socket, { backingUp: boolean }>();
  const server = net.createServer((socket) => {
    const state = { backingUp: false };
    connections.set(socket, state);
    socket.once("close", () => connections.delete(socket));
    socket.on("error", () => socket.destroy());
    void answer(socket, state, takeBackup);
  });
  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const holder = await holderOf(pgliteDir);
    if (holder !== undefined) throw new DataDirectoryInUseError(inUseMessage(pgliteDir, holder));
    // Left by a process that ended without removing it (killed): nobody answers on it.
    rmSync(socketPath, { force: true });
    await listen(server, socketPath);
  }
  chmodSync(socketPath, 0o600);

  return {
    async release() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A backup in progress may finish; past the grace it is cut (the copy is then refused as incomplete).
      for (const [socket, { backingUp }] of connections) if (!backingUp) socket.destroy();
      const grace = setTimeout(() => {
        for (const socket of connections.keys()) socket.destroy();
      }, RELEASE_GRACE_MS);
      await closed;
      clearTimeout(grace);
      rmSync(socketPath, { force: true });
      try {
        rmdirSync(controlDir);
      } catch {
        // Not empty or already gone: nothing of ours is left in it.
      }
    },
  };
}

async function answer(
  socket: net.Socket,
  state: { backingUp: boolean },
  takeBackup: () => Promise<Blob>,
): Promise<void> {
  socket.write(`${GREETING} ${process.pid}\n`);
  const connection: Connection = { socket, chunks: socket[Symbol.asyncIterator](), pending: Buffer.alloc(0) };
  let request: string;
  try {
    request = await readLine(connection);
  } catch {
    socket.destroy();
    return;
  }
  if (request !== "backup") {
    socket.end("error unknown request\n");
    return;
  }
  state.backingUp = true;
  let copy: Blob;
  try {
    copy = await takeBackup();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    socket.end(`error ${message.replaceAll("\n", " ")}\n`);
    return;
  }
  socket.write(`ok ${copy.size}\n`);
  try {
    await pipeline(Readable.fromWeb(copy.stream() as Parameters<typeof Readable.fromWeb>[0]), socket);
  } catch {
    socket.destroy();
  }
}
