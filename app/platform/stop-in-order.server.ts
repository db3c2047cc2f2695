/**
 * Stops a process's parts one after another and says how long each took, so that the stop's log line
 * shows where a slow stop spent its time (a queue waiting for its job, the database pool for a query).
 */
export type StopTimings = Record<string, number>;

export async function stopInOrder(
  steps: ReadonlyArray<readonly [name: string, stop: () => unknown]>,
): Promise<StopTimings> {
  const timings: StopTimings = {};
  for (const [name, stop] of steps) {
    const started = performance.now();
    await stop();
    timings[name] = Math.round(performance.now() - started);
  }
  return timings;
}
