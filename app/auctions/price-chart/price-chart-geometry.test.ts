import { describe, expect, it } from "vitest";
import {
  CHART,
  chartGeometry,
  chartSummary,
  keepEvery,
  markerPath,
  offsetLabel,
  type PriceChartData,
  priceTicks,
  scales,
  seriesStyle,
  stepPath,
  timeTicks,
} from "./price-chart-geometry";

// Worked by hand: the plot area is x 72..624 (552 wide), y 16..240 (224 high).

const MINUTE = 60_000;
const START = Date.UTC(2026, 11, 1, 16, 0);

function chart(overrides: Partial<PriceChartData> = {}): PriceChartData {
  return {
    startMs: START,
    endMs: START + 60 * MINUTE,
    steps: [
      [START + 10 * MINUTE, 900_000],
      [START + 20 * MINUTE, 800_000],
      [START + 40 * MINUTE, 700_000],
    ],
    points: [
      [START + 10 * MINUTE, 900_000, 0],
      [START + 20 * MINUTE, 800_000, 1],
      [START + 40 * MINUTE, 700_000, 0],
    ],
    series: ["Seller A (Alpha)", "Seller B (Bravo)"],
    pointCount: 3,
    extensions: [],
    firstAt: new Date(START + 10 * MINUTE).toISOString(),
    lastAt: new Date(START + 40 * MINUTE).toISOString(),
    audience: "full",
    ...overrides,
  };
}

describe("scales", () => {
  it("maps the start and end to the plot's edges, and the price range to its bottom and top", () => {
    const scale = scales(0, 600, 0, 1000);
    expect(scale.x(0)).toBe(CHART.left);
    expect(scale.x(600)).toBe(624);
    expect(scale.x(300)).toBe(348); // 72 + 552 / 2
    expect(scale.y(1000)).toBe(16);
    expect(scale.y(0)).toBe(240);
    expect(scale.y(250)).toBe(184); // 16 + 224 × 3/4
  });

  it("keeps times outside the span on its edges", () => {
    const scale = scales(100, 200, 0, 1);
    expect(scale.x(50)).toBe(72);
    expect(scale.x(500)).toBe(624);
  });
});

describe("priceTicks", () => {
  it("rounds the range out to steps of 1, 2 or 5 times a power of ten", () => {
    // $7,000 to $9,000: a quarter of $2,000 is $500, a nice step; 7000..9000 by 500.
    expect(priceTicks(700_000, 900_000)).toEqual({
      ticks: [700_000, 750_000, 800_000, 850_000, 900_000],
      low: 700_000,
      high: 900_000,
    });
    // $123.45 to $987.65: (98765 − 12345) / 4 = 21605 → a step of 50000 cents; 0..100000.
    expect(priceTicks(12_345, 98_765)).toEqual({ ticks: [0, 50_000, 100_000], low: 0, high: 100_000 });
  });

  it("makes a band around a single price", () => {
    // $500: a tenth is 5000 cents, already nice; one step either side.
    expect(priceTicks(50_000, 50_000)).toEqual({ ticks: [45_000, 50_000, 55_000], low: 45_000, high: 55_000 });
  });
});

describe("timeTicks", () => {
  it("spreads five ticks evenly from the start to the end", () => {
    expect(timeTicks(0, 60 * MINUTE)).toEqual([0, 15 * MINUTE, 30 * MINUTE, 45 * MINUTE, 60 * MINUTE]);
    expect(timeTicks(5, 5)).toEqual([5]);
  });
});

describe("stepPath", () => {
  const scale = scales(0, 600, 0, 1000);
  it("goes flat to each next step, then down to it, then on to the end", () => {
    expect(
      stepPath(
        [
          [0, 1000],
          [300, 500],
        ],
        scale,
        600,
      ),
    ).toBe("M72 16H348V128H624");
  });

  it("is empty without steps, and never runs back before the last step", () => {
    expect(stepPath([], scale, 600)).toBe("");
    expect(stepPath([[300, 0]], scale, 100)).toBe("M348 240H348");
  });
});

describe("markers", () => {
  it("tells series apart by shape and colour, both cycling, so pairs stay distinct past six", () => {
    expect(seriesStyle(0)).toEqual({ marker: "circle", colour: "#0b5cad" });
    expect(seriesStyle(1)).toEqual({ marker: "square", colour: "#b3470d" });
    // The seventh: a circle again, in the second colour.
    expect(seriesStyle(6)).toEqual({ marker: "circle", colour: "#b3470d" });
    const pairs = new Set(Array.from({ length: 36 }, (_, index) => JSON.stringify(seriesStyle(index))));
    expect(pairs.size).toBe(36);
  });

  it("draws each shape around its point", () => {
    expect(markerPath("square", 10, 20)).toBe("M6 16h8v8h-8Z");
    expect(markerPath("triangle", 10, 20)).toBe("M10 16L14 24H6Z");
    expect(markerPath("diamond", 10, 20)).toBe("M10 16L14 20L10 24L6 20Z");
    expect(markerPath("circle", 10, 20)).toBe("M6 20a4 4 0 1 0 8 0a4 4 0 1 0 -8 0Z");
  });
});

describe("chartGeometry", () => {
  it("draws the steps, the points and the ticks on one scale", () => {
    const geometry = chartGeometry(chart(), START + 50 * MINUTE);
    // x: 10 min of 60 → 72 + 92 = 164; 20 → 256; 40 → 440; 50 → 532. y: $7,000..$9,000 → 240..16.
    expect(geometry.line).toBe("M164 16H256V128H440V240H532");
    expect(geometry.points.map((point) => point.path.slice(0, 8))).toEqual(["M160 16a", "M252 124", "M436 240"]);
    // Each series' markers in one path, in the order drawn.
    expect(geometry.markers.map((markers) => [markers.series, markers.count])).toEqual(
      geometry.points.reduce<[number, number][]>((groups, point) => {
        const group = groups.find(([series]) => series === point.series);
        if (group) group[1] += 1;
        else groups.push([point.series, 1]);
        return groups;
      }, []),
    );
    expect(geometry.markers.map((markers) => markers.d).join("")).toHaveLength(
      geometry.points.reduce((length, point) => length + point.path.length, 0),
    );
    expect(geometry.priceTicks.map((tick) => tick.y)).toEqual([240, 184, 128, 72, 16]);
    expect(geometry.timeTicks.map((tick) => tick.x)).toEqual([72, 210, 348, 486, 624]);
  });

  it("marks each extension at the end it moved", () => {
    const extended = chart({
      endMs: START + 65 * MINUTE,
      extensions: [[START + 58 * MINUTE, START + 60 * MINUTE, START + 65 * MINUTE]],
    });
    // 60 of 65 minutes: 72 + 552 × 12/13 = 581.54.
    expect(chartGeometry(extended, START).extensions.map((extension) => extension.x)).toEqual([581.54]);
  });
});

describe("chartSummary", () => {
  const timeOf = (iso: string) => `[${iso.slice(11, 16)}]`;

  it("tells the auction's side the fall, the bids, the times and the extensions", () => {
    expect(chartSummary(chart(), timeOf)).toBe(
      "Lowest price fell from $9,000.00 to $7,000.00 over 3 bids between [16:10] and [16:40]; end never extended.",
    );
  });

  it("tells a seller their own bids only", () => {
    const seller = chart({ audience: "seller", pointCount: 1, extensions: [[0, 1, 2]] });
    expect(chartSummary(seller, timeOf)).toBe(
      "Lowest price fell from $9,000.00 to $7,000.00 between [16:10] and [16:40]; you placed 1 bid; end extended once.",
    );
  });

  it("reads well with one bid, and with none", () => {
    const one = chart({
      steps: [[START, 50_000]],
      pointCount: 1,
      firstAt: new Date(START).toISOString(),
      lastAt: new Date(START).toISOString(),
      extensions: [
        [0, 1, 2],
        [3, 4, 5],
      ],
    });
    expect(chartSummary(one, timeOf)).toBe("Lowest price $500.00 over 1 bid at [16:00]; end extended 2 times.");
    expect(chartSummary(chart({ steps: [], points: [], firstAt: null, lastAt: null }), timeOf)).toBe("No bids yet.");
  });
});

describe("keepEvery", () => {
  it("keeps every row up to the cap, then every Nth", () => {
    expect(keepEvery(500, 500)).toBe(1);
    expect(keepEvery(501, 500)).toBe(2);
    expect(keepEvery(10_000, 500)).toBe(20);
  });
});

describe("offsetLabel", () => {
  it("reads to the minute on the axis and to the second in the table", () => {
    expect(offsetLabel(15 * MINUTE)).toBe("+15 min");
    expect(offsetLabel(90 * MINUTE + 20_000)).toBe("+1 h 30 min");
    expect(offsetLabel(0)).toBe("+0 min");
    expect(offsetLabel(12 * MINUTE + 30_000, true)).toBe("12 min 30 s");
    expect(offsetLabel(26 * 60 * MINUTE, true)).toBe("1 d 2 h");
    expect(offsetLabel(0, true)).toBe("0 s");
  });
});
