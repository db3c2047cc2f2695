import { TableRegion } from "~/layout/table-region";
import { formatCents } from "~/shared/money";
import { lineTotalCents } from "./line-pricing";
import type { PricedLine } from "./unit-price-table";

// Bids on a lot compared line by line (issue 31): a sealed auction's price schedules after the
// deadline, and each seller's best bid on a reverse auction's lot for the auction's side.

export type ScheduledBid = { id: number; organizationName: string; amountCents: number; unitCents: number[] | null };

/**
 * The price schedules side by side (issue 31): a row per line (its quantity), a column pair per
 * seller (unit price and line total), the totals last; sellers lowest total first, as the bids come.
 */
export function PriceSchedules({
  lines,
  bids,
  caption = "The price schedules side by side, line by line, lowest total first",
  label = "The price schedules, line by line",
}: {
  lines: readonly PricedLine[];
  bids: readonly ScheduledBid[];
  caption?: string;
  /** The scrolling region's name (a page's heading may already carry the caption's words). */
  label?: string;
}) {
  return (
    <TableRegion label={label}>
      <table className="table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Line
            </th>
            <th scope="col" rowSpan={2}>
              Quantity
            </th>
            {bids.map((bid) => (
              <th scope="colgroup" colSpan={2} key={bid.id}>
                {bid.organizationName}
              </th>
            ))}
          </tr>
          <tr>
            {bids.map((bid) => [
              <th scope="col" key={`${bid.id}-unit`}>
                Unit price<span className="visually-hidden">{`, ${bid.organizationName}`}</span>
              </th>,
              <th scope="col" key={`${bid.id}-total`}>
                Line total<span className="visually-hidden">{`, ${bid.organizationName}`}</span>
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={line.position}>
              <th scope="row">{`${index + 1}. ${line.description}`}</th>
              <td>{`${line.quantityText} ${line.unit}`}</td>
              {bids.map((bid) => {
                const unit = bid.unitCents?.[index];
                return unit === undefined
                  ? [<td key={`${bid.id}-unit`}>—</td>, <td key={`${bid.id}-total`}>—</td>]
                  : [
                      <td key={`${bid.id}-unit`}>{formatCents(unit)}</td>,
                      <td key={`${bid.id}-total`}>{formatCents(lineTotalCents(line.quantity, unit))}</td>,
                    ];
              })}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total
            </th>
            {bids.map((bid) => (
              <td colSpan={2} key={bid.id}>
                <strong>{formatCents(bid.amountCents)}</strong>
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </TableRegion>
  );
}
