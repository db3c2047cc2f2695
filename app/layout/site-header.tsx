import { Form, NavLink } from "react-router";
import { SITE_NAME } from "./page-title";

const publicLinks = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/faq", label: "FAQ" },
];
const visitorLinks = [
  { to: "/login", label: "Login" },
  { to: "/signup", label: "Sign up" },
];

export function SiteHeader({ signedInAs }: { signedInAs: { email: string } | null }) {
  const navigation = signedInAs
    ? [...publicLinks, { to: "/auctions", label: "Auctions" }, { to: "/account", label: "Account" }]
    : [...publicLinks, ...visitorLinks];
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="site-header__name" href="/">
          {SITE_NAME}
        </a>
        <nav aria-label="Main">
          <ul className="site-nav">
            {navigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className="site-nav__link">
                  {item.label}
                </NavLink>
              </li>
            ))}
            {signedInAs ? (
              <li>
                <Form method="post" action="/logout">
                  <button type="submit" className="link-button site-nav__link">
                    Sign out<span className="visually-hidden"> ({signedInAs.email})</span>
                  </button>
                </Form>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </header>
  );
}
