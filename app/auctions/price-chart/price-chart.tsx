import { useId } from "react";
import { TableRegion } from "~/layout/table-region";
import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import {
  CHART,
  chartGeometry,
  chartSummary,
  markerPath,
  offsetLabel,
  type PriceChartData,
  seriesStyle,
} from "./price-chart-geometry";

// The price chart (issue 21): inline SVG rendered on the server, so it is there without JavaScript;
// with JavaScript the page's live view carries a new `priceChart` and this renders again from it.
// The SVG is one image to assistive technology (role="img", named and described by the summary);
// the same data is in the table below it, and every bid in the page's bid table.

export type PriceChartProps = {
  chart: PriceChartData;
  /** The view's status and the server's time when it made the view: the line runs to now while open. */
  status: string;
  serverTime: string;
  times: TimeTexts;
  /** Where the bids themselves are listed (the console's bid table, or the seller's own bids). */
  bidsLink: { href: string; text: string };
};

export function PriceChart({ chart, status, serverTime, times, bidsLink }: PriceChartProps) {
  const id = useId();
  if (chart.steps.length === 0) return null;
  const open = status === "open";
  const geometry = chartGeometry(chart, open ? Date.parse(serverTime) : chart.endMs);
  const summary = chartSummary(chart, (iso) => timeText(times, iso));
  const startIso = new Date(chart.startMs).toISOString();
  const titleId = `${id}-title`;
  const summaryId = `${id}-summary`;
  const downsampled = chart.points.length < chart.pointCount;
  const bottom = CHART.height - CHART.bottom;
  return (
    <section aria-labelledby={`${id}-heading`} className="price-chart">
      <h2 id={`${id}-heading`}>Price over time</h2>
      {/* Keyboard users pass the chart's stops (its table, its links) in one go (issue 32). */}
      <a className="skip-past" href={`#${AFTER_PRICE_CHART}`}>
        Skip the price chart
      </a>
      <figure>
        <svg
          role="img"
          aria-labelledby={titleId}
          aria-describedby={summaryId}
          viewBox={`0 0 ${CHART.width} ${CHART.height}`}
          className="price-chart-svg"
        >
          <title id={titleId}>
            {chart.audience === "full"
              ? "Lowest price and every bid over time"
              : "Lowest price and your bids over time"}
          </title>
          <g className="price-chart-grid">
            {geometry.priceTicks.map((tick) => (
              <g key={tick.cents}>
                <line x1={CHART.left} x2={CHART.width - CHART.right} y1={tick.y} y2={tick.y} />
                <text x={CHART.left - 6} y={tick.y + 4} textAnchor="end">
                  {formatCents(tick.cents).replace(/\.00$/, "")}
                </text>
              </g>
            ))}
            {geometry.timeTicks.map((tick, index) => (
              <text
                key={tick.ms}
                x={tick.x}
                y={bottom + 18}
                textAnchor={index === 0 ? "start" : index === geometry.timeTicks.length - 1 ? "end" : "middle"}
              >
                {index === 0 ? "Start" : index === geometry.timeTicks.length - 1 ? "End" : offsetLabel(tick.offsetMs)}
              </text>
            ))}
            <line className="price-chart-axis" x1={CHART.left} x2={CHART.width - CHART.right} y1={bottom} y2={bottom} />
          </g>
          {geometry.extensions.map((extension) => (
            <line
              key={extension.atMs}
              className="price-chart-extension"
              x1={extension.x}
              x2={extension.x}
              y1={CHART.top}
              y2={bottom}
            />
          ))}
          <path className="price-chart-line" d={geometry.line} />
          {geometry.markers.map((markers) => {
            const { colour, marker } = seriesStyle(markers.series);
            return (
              <path
                key={markers.series}
                className="price-chart-markers"
                data-markers={markers.count}
                d={markers.d}
                fill={marker === "cross" ? "none" : colour}
                stroke={colour}
                strokeWidth={marker === "cross" ? 2 : 1}
              />
            );
          })}
        </svg>
        <figcaption>
          <p id={summaryId}>{summary}</p>
          <ul className="price-chart-legend" aria-label="Legend">
            <li className="price-chart-legend-item">
              <LegendSample>
                <path className="price-chart-line" d="M2 5H10V11H18" />
              </LegendSample>
              Lowest price (a step each time it fell)
            </li>
            {chart.series.map((label, series) => {
              const { colour, marker } = seriesStyle(series);
              return (
                <li key={label} className="price-chart-legend-item">
                  <LegendSample>
                    <path
                      d={markerPath(marker, 10, 8, 5)}
                      fill={marker === "cross" ? "none" : colour}
                      stroke={colour}
                      strokeWidth={marker === "cross" ? 2 : 1}
                    />
                  </LegendSample>
                  {`${label}: ${marker.replace("-", " ")}`}
                </li>
              );
            })}
            {chart.extensions.length > 0 ? (
              <li className="price-chart-legend-item">
                <LegendSample>
                  <line className="price-chart-extension" x1={10} x2={10} y1={0} y2={16} />
                </LegendSample>
                The end before each extension (dashed)
              </li>
            ) : null}
          </ul>
          {downsampled ? (
            <p>{`${chart.points.length} of ${chart.pointCount} bids are drawn, evenly spread, to keep the chart light.`}</p>
          ) : null}
        </figcaption>
      </figure>
      <details>
        <summary>The chart's data as a table</summary>
        <TableRegion label="Lowest price over time">
          <table className="table">
            <caption>{`Lowest price over time (bidding opened ${timeText(times, startIso)})`}</caption>
            <thead>
              <tr>
                <th scope="col">After the start</th>
                <th scope="col">Lowest price</th>
              </tr>
            </thead>
            <tbody>
              {chart.steps.map(([atMs, cents]) => (
                <tr key={atMs}>
                  <td>{offsetLabel(atMs - chart.startMs, true)}</td>
                  <td>{formatCents(cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
        {chart.extensions.length > 0 ? (
          <ul>
            {chart.extensions.map(([atMs, fromMs, toMs]) => (
              <li key={atMs}>
                {`At ${offsetLabel(atMs - chart.startMs, true)} the end moved from ${offsetLabel(fromMs - chart.startMs, true)} to ${offsetLabel(toMs - chart.startMs, true)} after the start.`}
              </li>
            ))}
          </ul>
        ) : null}
        <p>
          <a href={bidsLink.href}>{bidsLink.text}</a>
        </p>
      </details>
      <span id={AFTER_PRICE_CHART} tabIndex={-1} />
    </section>
  );
}

/** Where "Skip the price chart" lands: the end of the chart's section (one chart per page). */
const AFTER_PRICE_CHART = "after-price-chart";

function LegendSample({ children }: { children: React.ReactNode }) {
  return (
    <svg className="price-chart-sample" viewBox="0 0 20 16" width="20" height="16" aria-hidden="true">
      {children}
    </svg>
  );
}
