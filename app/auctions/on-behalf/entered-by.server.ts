import { type SQL, sql } from "drizzle-orm";
import { Role } from "~/shared/roles";
import { auctionBids, organizations, users } from "~db/schema";

// Who entered a bid on a seller's behalf (issue 21), as SQL for the views that list bids (the console,
// the seller's own bids, the CSV). Its own module: those views import nothing else of the feature.

/** A user as a seller reads who acted for them: "Name (their organization)", "(marketplace staff)" for staff. */
export const userLabel = (userId: SQL) => sql<string>`coalesce((
    select coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)
      || case when u.role = ${sql.raw(String(Role.Staff))} then ' (marketplace staff)' else coalesce(' (' || o.name || ')', '') end
    from ${users} as u left join ${organizations} as o on o.id = u.organization_id
    where u.id = ${userId}), 'the auctioneer')`;

/**
 * Who entered an auction_bids row on the seller's behalf, as the seller and the buyer's side read it
 * ("the auctioneer" once the user is gone); null for a bid the seller placed. Names its columns with
 * the table, as Drizzle leaves them bare in a one-table select.
 */
export const enteredBySql = () =>
  sql<string | null>`case when ${auctionBids}.on_behalf_note is null then null
    else ${userLabel(sql`${auctionBids}.entered_by_user_id`)} end`;
