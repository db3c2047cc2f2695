import { formatCents } from "~/shared/money";
import { counted, howOften, timeRange } from "~/shared/words";

// The price chart's data and geometry (issue 21): plain functions from the series the server reads
// (price-chart.server.ts) to SVG path strings, ticks and the one-line summary. No library, no DOM:
// the same numbers on the server and in the browser, so the chart renders without JavaScript and
// hydrates without a difference.

/** [time in ms since the epoch, cents]: from that time on, the auction's lowest price. */
export type Step = readonly [atMs: number, cents: number];
/** [time, cents, series]: one bid; series indexes `PriceChartData.series`. */
export type BidPoint = readonly [atMs: number, cents: number, series: number];
/** [when the end moved, the end before, the end after], all ms since the epoch. */
export type Extension = readonly [atMs: number, fromMs: number, toMs: number];

/**
 * What the chart draws, for one viewer. Times are numbers (small on the event stream; no zone needed)
 * except `firstAt`/`lastAt`, ISO strings so the view's server-formatted texts name them. Holds
 * nothing about when it was read: the live stream's event ids are digests of the view (issue 17).
 */
export type PriceChartData = {
  /** When bidding started and the current end (x from one to the other). */
  startMs: number;
  endMs: number;
  /** The lowest price after each round of bids that lowered it, oldest first (downsampled past MAX_STEPS). */
  steps: Step[];
  /** The bids drawn, oldest first (downsampled past MAX_POINTS): every seller's for the auction's side, one's own for a seller. */
  points: BidPoint[];
  /** The bids' series: sellers' aliases (with names) for the auction's side, ["Your bids"] for a seller. */
  series: string[];
  /** How many bids the points stand for (all of them, before downsampling): the auction's, or the seller's own. */
  pointCount: number;
  /** The moves of the end (soft close), oldest first. */
  extensions: Extension[];
  /** When the lowest price was first set and last lowered (ISO 8601), null without bids. */
  firstAt: string | null;
  lastAt: string | null;
  /** Whose chart: the auction's side sees everyone; a seller only the lowest price and their own bids. */
  audience: "full" | "seller";
};

/**
 * At most this many bids and this many steps are drawn; more are downsampled in the query. The plot
 * is 552 units wide: more would overlap, and every one costs the page (loader data, SVG, the steps'
 * table) and every live event (issue 20: the console was 55 KB before the chart, 186 KB with 500 of each).
 */
export const MAX_POINTS = 150;
export const MAX_STEPS = 120;

/** Every Nth row kept (with the first and the last) to draw at most `max` of `total`. */
export function keepEvery(total: number, max: number): number {
  return total <= max ? 1 : Math.ceil(total / max);
}

/** Plot area inside the SVG's viewBox (user units; the SVG scales to its container). */
export const CHART = { width: 640, height: 280, left: 72, right: 16, top: 16, bottom: 40 } as const;

export type Scale = { x: (ms: number) => number; y: (cents: number) => number };

/** Linear scales of the plot area: x from start to end, y from `low` (bottom) to `high` (top). */
export function scales(startMs: number, endMs: number, low: number, high: number): Scale {
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const spanX = Math.max(1, endMs - startMs);
  const spanY = Math.max(1, high - low);
  return {
    x: (ms) => round(CHART.left + ((clamp(ms, startMs, endMs) - startMs) / spanX) * plotWidth),
    y: (cents) => round(CHART.top + ((high - cents) / spanY) * plotHeight),
  };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
/** Two decimals: enough for a 640-unit box, and short paths. */
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * "Nice" price ticks covering [low, high] in cents: 1, 2 or 5 times a power of ten dollars, about
 * `count` of them. Answers the ticks and the rounded range they span.
 */
export function priceTicks(low: number, high: number, count = 4): { ticks: number[]; low: number; high: number } {
  if (high <= low) {
    // One price only: a band of one step around it.
    const step = niceStep(Math.max(100, Math.abs(low) / 10));
    const bottom = Math.max(0, Math.floor(low / step) * step - step);
    return priceTicks(bottom, Math.ceil(high / step) * step + step, count);
  }
  const step = niceStep((high - low) / count);
  const bottom = Math.floor(low / step) * step;
  const top = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let value = bottom; value <= top + step / 2; value += step) ticks.push(value);
  return { ticks, low: bottom, high: top };
}

/** The nice step (1, 2 or 5 × 10^n cents, at least a cent) at or above `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= raw) return factor * power;
  return 10 * power;
}

/** Time ticks: start, end and up to `count - 2` evenly between, as ms. */
export function timeTicks(startMs: number, endMs: number, count = 5): number[] {
  if (endMs <= startMs) return [startMs];
  return Array.from({ length: count }, (_, index) => Math.round(startMs + ((endMs - startMs) * index) / (count - 1)));
}

/**
 * The lowest price as a step line: flat from each step to the next, down at the next, and on to
 * `untilMs` (now while bidding is open, else the end). "M x y H x V y …"; empty without steps.
 */
export function stepPath(steps: readonly Step[], scale: Scale, untilMs: number): string {
  const first = steps[0];
  if (!first) return "";
  const parts = [`M${scale.x(first[0])} ${scale.y(first[1])}`];
  for (const [atMs, cents] of steps.slice(1)) parts.push(`H${scale.x(atMs)}`, `V${scale.y(cents)}`);
  const last = steps[steps.length - 1] as Step;
  parts.push(`H${scale.x(Math.max(untilMs, last[0]))}`);
  return parts.join("");
}

/** Marker shapes, in this order for the series (then again): shape as well as colour tells them apart. */
export const MARKERS = ["circle", "square", "triangle", "diamond", "cross", "triangle-down"] as const;
export type Marker = (typeof MARKERS)[number];
/** Colours, dark enough on white for non-text contrast (3:1), distinct for common colour blindness. */
export const COLOURS = ["#0b5cad", "#b3470d", "#1d7a3a", "#7b2d8f", "#8a6d00", "#a3123b"] as const;

/** A series' marker and colour. Shapes and colours cycle at different places past six series, so pairs stay distinct up to 36. */
export function seriesStyle(series: number): { marker: Marker; colour: string } {
  return {
    marker: MARKERS[series % MARKERS.length] as Marker,
    colour: COLOURS[(series + Math.floor(series / MARKERS.length)) % COLOURS.length] as string,
  };
}

/** The marker's outline centred on (x, y), radius r, as a path. */
export function markerPath(marker: Marker, x: number, y: number, r = 4): string {
  const p = (value: number) => round(value);
  switch (marker) {
    case "circle":
      return `M${p(x - r)} ${p(y)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
    case "square":
      return `M${p(x - r)} ${p(y - r)}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case "triangle":
      return `M${p(x)} ${p(y - r)}L${p(x + r)} ${p(y + r)}H${p(x - r)}Z`;
    case "triangle-down":
      return `M${p(x)} ${p(y + r)}L${p(x + r)} ${p(y - r)}H${p(x - r)}Z`;
    case "diamond":
      return `M${p(x)} ${p(y - r)}L${p(x + r)} ${p(y)}L${p(x)} ${p(y + r)}L${p(x - r)} ${p(y)}Z`;
    case "cross":
      return `M${p(x - r)} ${p(y - r)}L${p(x + r)} ${p(y + r)}M${p(x + r)} ${p(y - r)}L${p(x - r)} ${p(y + r)}`;
  }
}

/**
 * One path per series holding each of its markers (a path takes many outlines): a few elements and
 * one set of attributes instead of one each per bid, for a smaller page and a cheaper render.
 */
function markersBySeries(points: readonly { series: number; path: string }[]) {
  const bySeries = new Map<number, { series: number; d: string; count: number }>();
  for (const point of points) {
    const markers = bySeries.get(point.series);
    if (markers) {
      markers.d += point.path;
      markers.count += 1;
    } else bySeries.set(point.series, { series: point.series, d: point.path, count: 1 });
  }
  return [...bySeries.values()];
}

/** Everything the component draws, in viewBox units. */
export function chartGeometry(chart: PriceChartData, untilMs: number) {
  const endMs = Math.max(chart.endMs, chart.startMs + 1);
  const prices = [...chart.steps.map((step) => step[1]), ...chart.points.map((bid) => bid[1])];
  const range = priceTicks(Math.min(...prices), Math.max(...prices));
  const scale = scales(chart.startMs, endMs, range.low, range.high);
  const until = clamp(untilMs, chart.startMs, endMs);
  const points = chart.points.map(([atMs, cents, series]) => ({
    atMs,
    cents,
    series,
    path: markerPath(seriesStyle(series).marker, scale.x(atMs), scale.y(cents)),
  }));
  return {
    line: stepPath(chart.steps, scale, until),
    points,
    markers: markersBySeries(points),
    priceTicks: range.ticks.map((cents) => ({ cents, y: scale.y(cents) })),
    timeTicks: timeTicks(chart.startMs, endMs).map((ms) => ({ ms, offsetMs: ms - chart.startMs, x: scale.x(ms) })),
    extensions: chart.extensions.map(([atMs, fromMs, toMs]) => ({ atMs, fromMs, toMs, x: scale.x(fromMs) })),
  };
}

/** The one-line summary for screen readers (times are the server's texts, given by `timeOf`). */
export function chartSummary(chart: PriceChartData, timeOf: (iso: string) => string): string {
  const first = chart.steps[0];
  const last = chart.steps[chart.steps.length - 1];
  if (!first || !last || !chart.firstAt || !chart.lastAt) return "No bids yet.";
  // Two instants that read the same (bids in the same minute) are one time, not a span.
  const between = timeRange(chart.firstAt, chart.lastAt, timeOf);
  const fell =
    first[1] === last[1]
      ? `Lowest price ${formatCents(last[1])}`
      : `Lowest price fell from ${formatCents(first[1])} to ${formatCents(last[1])}`;
  // A seller is told how many bids they placed, never how many the others did (issue 17).
  const bids =
    chart.audience === "full"
      ? ` over ${counted(chart.pointCount, "bid", "bids")}`
      : `; you placed ${counted(chart.pointCount, "bid", "bids")}`;
  const order = chart.audience === "full" ? `${fell}${bids} ${between}` : `${fell} ${between}${bids}`;
  const extended = chart.extensions.length;
  return `${order}; end ${extended === 0 ? "never extended" : `extended ${howOften(extended)}`}.`;
}

/**
 * A time after the start, for people: "+15 min", "+1 h 30 min" on the axis (to the minute), "12 min
 * 30 s" in the table (to the second). Relative, so it needs no time zone and reads the same on the
 * server and in the browser.
 */
export function offsetLabel(ms: number, precise = false): string {
  const total = Math.max(0, Math.round(ms / (precise ? 1_000 : 60_000)) * (precise ? 1 : 60));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  const parts = [
    days > 0 ? `${days} d` : "",
    hours > 0 ? `${hours} h` : "",
    minutes > 0 ? `${minutes} min` : "",
    precise && (seconds > 0 || total === 0) ? `${seconds} s` : "",
  ].filter(Boolean);
  if (parts.length === 0) return precise ? "0 s" : "+0 min";
  return precise ? parts.join(" ") : `+${parts.join(" ")}`;
}
