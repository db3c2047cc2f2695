export const aboutIntro: string[] = [
  "Upstream Marketplace is an online reverse-auction marketplace for upstream oil and gas goods and services in Alberta. It brings together the operators who need work done, the service companies who do it, and the consultants who know how to match the two.",
  "Buyers post projects. Prescreened sellers bid the price down. The lowest-cost qualified seller wins. Everything in between, from inviting sellers to evaluating bids, happens in one place with a clear record of who did what and when.",
];

export type AboutSection = {
  id: string;
  heading: string;
  paragraphs: string[];
};

export const aboutSections: AboutSection[] = [
  {
    id: "cost-reduction",
    heading: "Cost reduction",
    paragraphs: [
      "Competitive bidding is one of the most reliable ways to find the real market price for a job. In a reverse auction, invited sellers bid against each other in real time, and each bid pushes the price down. The buyer sets a reserve price, the maximum they are prepared to pay, and the auction shows how far below that the market will go.",
      "The process itself also costs less. Buyers no longer have to chase quotes by phone and email, compare them by hand or re-check each supplier's paperwork on every job. Sellers win work without long sales cycles and can see new opportunities as soon as they are invited to bid.",
    ],
  },
  {
    id: "value-retention",
    heading: "Value retention",
    paragraphs: [
      "A lower price is only worth having if the work is still done safely and well. Every seller on Upstream Marketplace is prescreened on safety, insurance and WCB registrations before they can bid, and buyers choose which pre-qualified sellers are invited to each auction. The winning bid is the lowest-cost qualified bid, not simply the lowest number.",
      "Consultants acting as auctioneers evaluate bids technically, so buyers can be confident that the equipment, crews and plans behind a bid match the scope of work. For projects where the technical approach matters as much as the price, buyers can run a closed-bid auction with supporting documents instead.",
      "Sellers keep control of their margins. Seller identities are hidden from competing bidders, and the auto-bid feature bids on a seller's behalf down to a secret minimum that no competitor sees. A seller never has to bid below the price at which the work makes sense for them.",
    ],
  },
  {
    id: "time-limited-auctions",
    heading: "Time-limited auctions",
    paragraphs: [
      "Every auction has a set opening and closing time, fixed when the project is posted. Sellers know exactly how long they have to bid, and buyers know when they will have a result.",
      "A fixed bidding window keeps projects moving. Instead of a tender that drags on for weeks, the buyer gets competitive, binding prices within a defined period and can plan the work with confidence. Because bids cannot be retracted, the price at the close is a price the seller has committed to.",
    ],
  },
  {
    id: "how-it-works",
    heading: "How it works",
    paragraphs: [
      "Buyers post a project, set a reserve price and choose which pre-qualified sellers to invite. Buyers pay a per-auction fee, which is agreed before the project is posted.",
      "Sellers register once, complete prescreening, and then bid on the projects they are invited to. New sellers start with a 7-day free trial.",
      "Consultants act as auctioneers. They help buyers define the work, match it with seller capacity, and evaluate bids technically before the work is awarded.",
    ],
  },
];
