import { Link } from "react-router";
import { HomeSignInForm } from "~/accounts/sign-in/sign-in-fields";
import { pageTitle } from "~/layout/page-title";

export function meta() {
  return [
    { title: pageTitle("Reverse auctions for upstream oil and gas") },
    {
      name: "description",
      content:
        "An online reverse-auction marketplace for upstream oil and gas goods and services in Alberta. Prescreened service companies bid; the lowest-cost qualified seller wins.",
    },
  ];
}

export default function Home() {
  return (
    <div className="home">
      <section className="banner" aria-labelledby="welcome-heading">
        <div className="banner__text">
          <h1 id="welcome-heading">Welcome to Upstream Marketplace</h1>
          <p className="lead">
            The reverse-auction marketplace for upstream oil and gas goods and services in Alberta.
          </p>
          <ul className="banner__points">
            <li>Buyers post projects and choose which prescreened sellers are invited.</li>
            <li>Service companies, prescreened on safety, insurance and WCB, bid the price down.</li>
            <li>The lowest-cost qualified seller wins, within a fixed auction window.</li>
          </ul>
          <p>
            <Link to="/about">How the marketplace works</Link> · <Link to="/faq">Frequently asked questions</Link>
          </p>
        </div>
        <section className="banner__sign-in card" aria-labelledby="sign-in-heading">
          <h2 id="sign-in-heading">Sign in</h2>
          <HomeSignInForm id="home-sign-in" />
        </section>
      </section>

      <section aria-labelledby="roles-heading" className="roles">
        <h2 id="roles-heading">Who takes part</h2>
        <ul className="role-list">
          <li className="card">
            <h3>Buyers</h3>
            <p>Operators post projects, set a reserve price and invite the pre-qualified sellers they choose.</p>
            <p>
              <Link to="/signup?type=buyer">Register as a buyer</Link>
            </p>
          </li>
          <li className="card">
            <h3>Sellers</h3>
            <p>Service companies bid on the work they can do, with their identity hidden from competitors.</p>
            <p>
              <Link to="/signup?type=seller">Register as a seller</Link>
            </p>
          </li>
          <li className="card">
            <h3>Consultants</h3>
            <p>Auctioneers match buyer requirements with seller capacity and evaluate bids technically.</p>
            <p>
              <Link to="/signup?type=consultant">Register as a consultant</Link>
            </p>
          </li>
        </ul>
      </section>
    </div>
  );
}
