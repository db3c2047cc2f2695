import PgBoss from "pg-boss";
import { logger } from "~/platform/logger.server";
import { utcDay } from "~/shared/dates";
import { counted } from "~/shared/words";
import { type ReminderServices, sendExpiryReminders } from "./expiry-reminders.server";

// The job queue on the same PostgreSQL (pg-boss): the daily expiry reminders run in the worker process
// (`node server.js --worker`), never on a timer inside a web process. pg-boss keeps the schedule in the
// database and hands each run to one worker, however many machines run one.

export const EXPIRY_REMINDERS_JOB = "expiry-reminders";
/** Daily at 14:00 UTC: 07:00 in Alberta in winter, 08:00 in summer. */
export const EXPIRY_REMINDERS_CRON = "0 14 * * *";

const today = () => utcDay(new Date());

export async function startRemindersWorker(
  services: ReminderServices,
  connectionString: string,
  options: { pollingIntervalSeconds?: number } = {},
) {
  const boss = new PgBoss({ connectionString, schema: "pgboss", max: 2 });
  boss.on("error", (error) => logger.error({ err: error }, "job queue failed"));
  await boss.start();
  await boss.createQueue(EXPIRY_REMINDERS_JOB);
  await boss.schedule(EXPIRY_REMINDERS_JOB, EXPIRY_REMINDERS_CRON, {}, { tz: "UTC" });
  await boss.work(EXPIRY_REMINDERS_JOB, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 30 }, async () => {
    const { reminded } = await sendExpiryReminders(services, today());
    logger.info({ reminded }, `expiry reminders: ${counted(reminded, "document", "documents")} reminded of`);
  });
  return {
    boss,
    /** Asks for a run now (the schedule's runs and these are the same job). */
    runNow: () => boss.send(EXPIRY_REMINDERS_JOB, {}),
    stop: () => boss.stop({ graceful: true, wait: true }),
  };
}
