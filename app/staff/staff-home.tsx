import { Link } from "react-router";
import { pageTitle } from "~/layout/page-title";

export function meta() {
  return [{ title: pageTitle("Staff area") }];
}

export default function StaffHome() {
  return (
    <div className="prose">
      <h1>Staff area</h1>
      <ul>
        <li>
          <Link to="/staff/registrations">Registrations</Link>: review applicants, approve or reject them
        </li>
        <li>
          <Link to="/staff/invoices">Invoices</Link>: buyers' invoices, posting, e-invoicing exports and credit notes
        </li>
        <li>
          <Link to="/staff/reports">Reports</Link>: the marketplace's savings against reserves by month, category and
          area
        </li>
        <li>
          <Link to="/staff/services">Services</Link>: the service categories sellers choose from
        </li>
        <li>
          <Link to="/staff/service-areas">Service areas</Link>: the cities and towns buyers and sellers work in
        </li>
        <li>
          <Link to="/staff/api-tokens">API tokens</Link>: for scripts that maintain the catalogue through /api
        </li>
        <li>
          <Link to="/staff/pickers">Picker preview</Link>: the service-area and service checkboxes of the registration
          forms
        </li>
        <li>
          <Link to="/staff/messages">Messages</Link>: every e-mail and SMS with its delivery state; resend one
        </li>
        <li>
          <Link to="/staff/payment-events">Payment events</Link>: Stripe's webhook events with their processing state;
          retry a failed one
        </li>
      </ul>
    </div>
  );
}
