import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { type ServiceNode, serviceTree } from "../services.server";
import type { Route } from "./+types/services";
import { noticeFrom } from "./catalogue-form";

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    tree: await serviceTree(context.get(appServicesContext).db),
    notice: noticeFrom(request.url, "Service"),
  };
}

export function meta() {
  return [{ title: pageTitle("Services") }];
}

function ServiceItem({ node }: { node: ServiceNode }) {
  return (
    <li>
      <div className="tree__row">
        <span className="tree__name">{node.name}</span>
        {node.cost_account_code ? <span className="tree__code">{node.cost_account_code}</span> : null}
        <span className="tree__actions">
          <Link to={`/staff/services/${node.id}/edit`}>
            Edit<span className="visually-hidden"> {node.name}</span>
          </Link>
          {node.depth < 3 ? (
            <Link to={`/staff/services/new?parent=${node.id}`}>
              Add a sub-service<span className="visually-hidden"> to {node.name}</span>
            </Link>
          ) : null}
          <Link to={`/staff/services/${node.id}/delete`}>
            Delete<span className="visually-hidden"> {node.name}</span>
          </Link>
        </span>
      </div>
      {node.children.length ? (
        <ul className="tree">
          {node.children.map((child) => (
            <ServiceItem key={child.id} node={child} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export default function Services({ loaderData }: Route.ComponentProps) {
  const { tree, notice } = loaderData;
  return (
    <div>
      <h1>Services</h1>
      {notice ? <Alert title={notice} tone="success" focus /> : null}
      <p>
        The service categories sellers choose from: top groups, their sub-services and sub-sub-services (three levels at
        most).
      </p>
      <p>
        <Link className="button" to="/staff/services/new">
          Add a service
        </Link>
      </p>
      {tree.length ? (
        <ul className="tree tree--root" aria-label="Service hierarchy">
          {tree.map((node) => (
            <ServiceItem key={node.id} node={node} />
          ))}
        </ul>
      ) : (
        <p>There are no services yet.</p>
      )}
    </div>
  );
}
