import { NavLink, Outlet } from "react-router";
import { requireStaff } from "~/sessions/auth.server";
import type { Route } from "./+types/staff-layout";

// Runs before any staff loader or action: visitors go to sign in, other roles get 403.
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    requireStaff(request, context);
  },
];

const sections = [
  { to: "/staff/registrations", label: "Registrations" },
  { to: "/staff/invoices", label: "Invoices" },
  { to: "/staff/reports", label: "Reports" },
  { to: "/staff/services", label: "Services" },
  { to: "/staff/service-areas", label: "Service areas" },
  { to: "/staff/api-tokens", label: "API tokens" },
  { to: "/staff/pickers", label: "Picker preview" },
  { to: "/staff/messages", label: "Messages" },
  { to: "/staff/payment-events", label: "Payment events" },
];

export default function StaffLayout() {
  return (
    <div className="staff">
      <nav aria-label="Staff" className="sub-nav">
        <ul>
          <li>
            <NavLink to="/staff" end>
              Staff area
            </NavLink>
          </li>
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to}>{section.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
