import type { SubmissionResult } from "@conform-to/react";
import { asc, eq } from "drizzle-orm";
import { data } from "react-router";
import type { SelectOption } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { readFormBody } from "~/platform/request-body.server";
import { DEFAULT_TIMEZONE, isTimeZone, utcToZonedLocal, zonedLocalToUtc } from "~/platform/zoned-time";
import type { CurrentUser } from "~/sessions/current-user";
import { dollars } from "~/shared/money";
import { Role } from "~/shared/roles";
import type { Database } from "~db/database.server";
import { organizations, provinces, serviceAreas, services } from "~db/schema";
import { type AuctionWithLots, firstLot } from "../auction-views.server";
import { auctionFormSchema, decrementValueOf, requirementLines } from "./auction-schema";
import type { AuctionTerms } from "./auction-terms";
import { checkTermsReferences } from "./auction-terms.server";

// The auction form's server side: its lists (categories as a tree, areas by province), the stored
// terms back as form values, and a submission turned into terms in UTC from the user's time zone.

export type AuctionFormOptions = {
  services: SelectOption[];
  serviceAreas: SelectOption[];
  /** Consultant organizations that may be named to evaluate the bids technically. */
  evaluators: SelectOption[];
  timezone: string;
};

/** Consultant organizations (type 4) other than the user's own. */
async function consultantOrganizations(db: Database, ownOrganizationId: number | null) {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.organizationType, Role.Consultant))
    .orderBy(asc(organizations.name));
  return rows.filter((row) => row.id !== ownOrganizationId);
}

export const timezoneOf = (user: CurrentUser) =>
  user.timezone && isTimeZone(user.timezone) ? user.timezone : DEFAULT_TIMEZONE;

export async function loadAuctionFormOptions(db: Database, user: CurrentUser): Promise<AuctionFormOptions> {
  const [serviceRows, areaRows, consultants] = await Promise.all([
    db
      .select({ id: services.id, name: services.name, parentId: services.parentId })
      .from(services)
      .orderBy(asc(services.name)),
    db
      .select({ id: serviceAreas.id, city: serviceAreas.city, province: provinces.name })
      .from(serviceAreas)
      .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
      .orderBy(asc(provinces.name), asc(serviceAreas.city)),
    consultantOrganizations(db, user.organizationId),
  ]);
  // Categories in tree order, each labelled with its path: "Trucking › Gravel hauling".
  const children = new Map<number | null, typeof serviceRows>();
  for (const row of serviceRows) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const options: SelectOption[] = [];
  const walk = (parentId: number | null, path: string[]) => {
    for (const row of children.get(parentId) ?? []) {
      const label = [...path, row.name];
      options.push({ value: String(row.id), label: label.join(" › ") });
      walk(row.id, label);
    }
  };
  walk(null, []);
  return {
    services: options,
    serviceAreas: areaRows.map((row) => ({ value: String(row.id), label: `${row.city} (${row.province})` })),
    evaluators: consultants.map((row) => ({ value: String(row.id), label: row.name })),
    timezone: timezoneOf(user),
  };
}

/** A stored auction as the form's values, times on the user's wall clock. */
export function auctionFormValues(auction: AuctionWithLots, timezone: string, requirements: string[]) {
  const sealed = auction.kind === "sealed";
  const lot = firstLot(auction);
  return {
    kind: auction.kind,
    title: auction.title,
    description: auction.description,
    service: String(auction.serviceId),
    service_area: String(auction.serviceAreaId),
    reserve: dollars(auction.reserveCents),
    decrement_kind: lot.decrementKind,
    decrement_amount: !sealed && lot.decrementKind === "amount" ? dollars(lot.decrementValue) : "",
    decrement_percent: !sealed && lot.decrementKind === "percent" ? String(lot.decrementValue / 100) : "",
    starts_at: utcToZonedLocal(auction.startsAt, timezone),
    ends_at: utcToZonedLocal(auction.scheduledEndsAt, timezone),
    seller_view: auction.sellerView,
    soft_close_window: String(auction.softCloseWindowMinutes),
    soft_close_extension: String(auction.softCloseExtensionMinutes),
    soft_close_cap: String(auction.softCloseCapMinutes),
    evaluator: auction.evaluatorOrganizationId ? String(auction.evaluatorOrganizationId) : "",
    price_weight: String(auction.priceWeightPercent),
    pass_mark: auction.technicalPassMark === null ? "" : String(auction.technicalPassMark),
    requirements: requirements.join("\n"),
  };
}

/** Sensible starting values for a new auction: tomorrow 09:00 to 17:00 on the user's clock. */
export function newAuctionValues(timezone: string, now = new Date()) {
  const tomorrow = utcToZonedLocal(new Date(now.getTime() + 86_400_000), timezone).slice(0, 10);
  return {
    kind: "reverse",
    decrement_kind: "amount",
    seller_view: "lowest",
    price_weight: "100",
    starts_at: `${tomorrow}T09:00`,
    ends_at: `${tomorrow}T17:00`,
    soft_close_window: "5",
    soft_close_extension: "5",
    soft_close_cap: "60",
  };
}

export type AuctionFormAnswer = { result: SubmissionResult<string[]> };

/**
 * The submission as terms, or the page's answer (400, values kept). Starting in the past is
 * refused for a new or rescheduled auction.
 */
export async function parseAuctionForm(
  request: Request,
  db: Database,
  user: CurrentUser,
  now = new Date(),
): Promise<
  { kind: "terms"; terms: AuctionTerms } | { kind: "answer"; response: ReturnType<typeof data<AuctionFormAnswer>> }
> {
  const formData = await readFormBody(request);
  const submission = parseSubmission(formData, { schema: auctionFormSchema });
  const refuse = (fieldErrors: Record<string, string[]> = {}) => ({
    kind: "answer" as const,
    response: data({ result: submission.reply({ fieldErrors }) }, { status: 400 }),
  });
  if (submission.status !== "success") return refuse();
  const value = submission.value;
  const timezone = timezoneOf(user);
  const startsAt = zonedLocalToUtc(value.starts_at, timezone);
  const endsAt = zonedLocalToUtc(value.ends_at, timezone);
  const errors: Record<string, string[]> = {};
  if (!startsAt) errors.starts_at = ["Please enter a date and time, like 2026-12-01 09:00"];
  if (!endsAt) errors.ends_at = ["Please enter a date and time, like 2026-12-01 17:00"];
  if (startsAt && startsAt.getTime() < now.getTime() - 60_000) {
    errors.starts_at = ["Bidding cannot start in the past"];
  }
  const references = await checkTermsReferences(db, { serviceId: value.service, serviceAreaId: value.service_area });
  for (const [field, message] of Object.entries(references)) errors[field] = [message];
  if (value.evaluator !== undefined) {
    const consultants = await consultantOrganizations(db, user.organizationId);
    if (!consultants.some((row) => row.id === value.evaluator)) {
      errors.evaluator = ["Please choose a consultant from the list"];
    }
  }
  if (Object.keys(errors).length > 0 || !startsAt || !endsAt) return refuse(errors);
  // A sealed auction has no decrement and no soft close: one bid each, read after a fixed deadline.
  const sealed = value.kind === "sealed";
  return {
    kind: "terms",
    terms: {
      kind: value.kind,
      title: value.title,
      description: value.description,
      serviceId: value.service,
      serviceAreaId: value.service_area,
      reserveCents: value.reserve,
      decrementKind: sealed ? "amount" : value.decrement_kind,
      decrementValue: sealed ? 1 : (decrementValueOf(value) ?? 0),
      startsAt,
      endsAt,
      sellerView: sealed ? "lowest" : value.seller_view,
      softCloseWindowMinutes: sealed ? 0 : value.soft_close_window,
      softCloseExtensionMinutes: sealed ? 0 : value.soft_close_extension,
      softCloseCapMinutes: sealed ? 0 : value.soft_close_cap,
      evaluatorOrganizationId: value.evaluator ?? null,
      priceWeightPercent: value.price_weight,
      technicalPassMark: value.pass_mark ?? null,
      requirements: sealed ? requirementLines(value.requirements) : [],
    },
  };
}
