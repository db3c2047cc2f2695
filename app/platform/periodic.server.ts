import { logger } from "./logger.server";

/**
 * Runs `work` now and then every `intervalMs`, never two passes at once (a tick while one is under
 * way is skipped), logging failures under `label`. The timer does not keep the process alive.
 * Stopping clears the timer and waits for the pass under way.
 */
export function startPeriodic(label: string, work: () => Promise<unknown>, intervalMs: number) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = work()
      .catch((error) => logger.error({ err: error }, `${label} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
