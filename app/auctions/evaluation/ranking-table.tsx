import { TableRegion } from "~/layout/table-region";
import { formatCents } from "~/shared/money";

// The ranking as a table (issue 10), on the evaluation page (per lot for an auction of several, issue
// 31) and the award page: each bid's rank, or why it is not ranked, with its price and scores.

export type RankingTableRow = {
  id: number;
  rank: number | null;
  /** Why the bid is not ranked (a qualification text), when it is not. */
  reason: string | null;
  name: string;
  amountCents: number;
  technical: number | null;
  combined: number | null;
  /** Shown as a column where the rows have it (the evaluation page). */
  priceScore?: number | null;
};

export function RankingTable({
  label,
  caption,
  captionShown = false,
  rows,
}: {
  label: string;
  caption: string;
  captionShown?: boolean;
  rows: readonly RankingTableRow[];
}) {
  const priceScores = rows.some((row) => row.priceScore !== undefined);
  return (
    <TableRegion label={label}>
      <table className="table">
        <caption className={captionShown ? undefined : "visually-hidden"}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Seller</th>
            <th scope="col">Price</th>
            {priceScores ? <th scope="col">Price score</th> : null}
            <th scope="col">Technical score</th>
            <th scope="col">Combined score</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.rank === null ? `Not ranked: ${row.reason ?? ""}` : String(row.rank)}</td>
              <th scope="row">{row.name}</th>
              <td>{formatCents(row.amountCents)}</td>
              {priceScores ? <td>{row.priceScore == null ? "None" : String(row.priceScore)}</td> : null}
              <td>{row.technical === null ? "Not scored" : String(row.technical)}</td>
              <td>{row.combined === null ? "None" : String(row.combined)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
