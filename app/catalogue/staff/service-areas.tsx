import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { listProvinces, listServiceAreas } from "../service-areas.server";
import type { Route } from "./+types/service-areas";
import { noticeFrom } from "./catalogue-form";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const [areas, provinces] = await Promise.all([listServiceAreas(db), listProvinces(db)]);
  const groups = provinces
    .map((province) => ({ ...province, areas: areas.filter((area) => area.province === province.id) }))
    .filter((group) => group.areas.length > 0);
  return { groups, notice: noticeFrom(request.url, "Service area") };
}

export function meta() {
  return [{ title: pageTitle("Service areas") }];
}

export default function ServiceAreas({ loaderData }: Route.ComponentProps) {
  const { groups, notice } = loaderData;
  return (
    <div>
      <h1>Service areas</h1>
      {notice ? <Alert title={notice} tone="success" focus /> : null}
      <p>The cities and towns buyers and sellers work in, by province.</p>
      <p>
        <Link className="button" to="/staff/service-areas/new">
          Add a service area
        </Link>
      </p>
      {groups.length === 0 ? <p>There are no service areas yet.</p> : null}
      {groups.map((group) => (
        <section key={group.id} aria-labelledby={`province-${group.id}`}>
          <h2 id={`province-${group.id}`}>
            {group.name} ({group.areas.length})
          </h2>
          <ul className="tree">
            {group.areas.map((area) => (
              <li key={area.id}>
                <div className="tree__row">
                  <span className="tree__name">{area.city}</span>
                  <span className="tree__actions">
                    <Link to={`/staff/service-areas/${area.id}/edit`}>
                      Edit<span className="visually-hidden"> {area.city}</span>
                    </Link>
                    <Link to={`/staff/service-areas/${area.id}/delete`}>
                      Delete<span className="visually-hidden"> {area.city}</span>
                    </Link>
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
