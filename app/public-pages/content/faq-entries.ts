export type FaqEntry = { id: string; question: string; answer: string[] };

export const faqEntries: FaqEntry[] = [
  {
    id: "what-is-upstream-marketplace",
    question: "What is Upstream Marketplace?",
    answer: [
      "Upstream Marketplace is an online reverse-auction marketplace for upstream oil and gas goods and services. Buyers (oil and gas operators) post projects, prescreened sellers (service companies) bid the price down, and the lowest-cost qualified seller wins the work.",
      "Consultants, who act as auctioneers, help match a buyer's requirements with the sellers who have the capacity to do the work, and evaluate the bids technically before an award is made.",
    ],
  },
  {
    id: "who-can-join",
    question: "Who can join the Marketplace?",
    answer: [
      "Upstream Marketplace is focused on the upstream oil and gas industry in Alberta. Three types of organization can register: buyers, sellers (service companies and suppliers) and consultants (auctioneers).",
      "Many sellers also work outside Alberta. During registration, sellers select the provinces and cities they serve, and service areas are available across Western Canada, including British Columbia, Saskatchewan and Manitoba.",
    ],
  },
  {
    id: "how-reverse-auction-works",
    question: "How does a reverse auction work?",
    answer: [
      "In a conventional auction, buyers bid the price up. In a reverse auction the roles are switched: one buyer describes the work, and sellers compete by bidding the price down.",
      "Each auction runs for a set period. When it closes, the bids are evaluated and the lowest-cost qualified seller wins. Qualified means the seller has passed prescreening and the auctioneer's technical evaluation has confirmed that the bid meets the buyer's requirements.",
    ],
  },
  {
    id: "closed-bid-vs-reverse-auction",
    question: "How is a closed-bid auction different from a reverse auction?",
    answer: [
      "In a reverse auction, invited sellers bid against each other during a live, time-limited bidding period, and each new bid pushes the price down. It works best when the scope of work is well defined and price is the main point of difference between sellers.",
      "In a closed-bid auction, each invited seller makes one sealed submission before the closing time, together with supporting documents such as a technical proposal, work plan, schedule, equipment list or safety plan. Sellers cannot see each other's submissions, and there is no back-and-forth bidding.",
      "Closed-bid auctions suit larger or more complex projects, where the buyer and the auctioneer need to review how the work will be done, not just what it will cost. In both formats, the lowest-cost qualified seller wins.",
    ],
  },
  {
    id: "what-does-a-consultant-do",
    question: "What does a consultant (auctioneer) do?",
    answer: [
      "A consultant acts as the auctioneer for a buyer's project. The consultant helps the buyer define the scope of work, matches the buyer's needs with sellers that have the right capacity and qualifications, and sets up and monitors the auction.",
      "After the auction closes, the consultant evaluates the bids technically, for example by checking that the equipment, crew, schedule and supporting documents meet the requirements, so that the buyer can award the work to the lowest-cost qualified seller.",
    ],
  },
  {
    id: "how-are-sellers-prescreened",
    question: "How are sellers prescreened?",
    answer: [
      "Every seller is prescreened before taking part in auctions. Prescreening covers the seller's safety program and safety certifications, insurance coverage and WCB (Workers' Compensation Board) registrations.",
      "Sellers provide this information in the Safety Program, Safety / Certifications and Insurance & WCB sections of the registration form, including policy coverage levels and expiry dates. Preference may be given to sellers with complete information, so we recommend filling in every section.",
      "Sellers are responsible for keeping their insurance, WCB and certification details current. Expired documents can affect a seller's prescreened status.",
    ],
  },
  {
    id: "who-is-invited-to-bid",
    question: "Which sellers are invited to bid on a project?",
    answer: [
      "Buyers choose which pre-qualified sellers are invited to each auction. A buyer can invite sellers based on service category, service area, safety and insurance information, or their own experience with a company.",
      "Only invited sellers can see the project and place bids.",
    ],
  },
  {
    id: "what-is-the-reserve-price",
    question: "What is the reserve price?",
    answer: [
      "The reserve price is the buyer's maximum: the highest price the buyer is prepared to pay for the work. Bids must come in at or below the reserve price.",
    ],
  },
  {
    id: "can-bids-be-retracted",
    question: "Can I retract or withdraw a bid?",
    answer: [
      "No. Bids cannot be retracted. Every bid is binding, so once you place a bid you are committed to doing the work at that price if you are selected.",
      "Please review the scope of work, supporting documents and your own costs carefully before bidding, and double-check the amount before you submit it.",
    ],
  },
  {
    id: "are-seller-identities-hidden",
    question: "Can other sellers see who I am when I bid?",
    answer: [
      "No. Seller identities are hidden from competing bidders. Other sellers in the same auction cannot see your company name or any other details that identify you.",
    ],
  },
  {
    id: "who-sees-the-bid-list",
    question: "Who can see the bid list?",
    answer: [
      "Only the buyer and the auctioneer see the bid list for an auction.",
      "A seller sees only their own minimum bid. Sellers cannot see the bid list, other sellers' bids or other sellers' minimums.",
    ],
  },
  {
    id: "how-does-auto-bid-work",
    question: "How does the auto-bid feature work?",
    answer: [
      "Auto-bid lets a seller enter a secret minimum: the lowest price the seller is willing to accept for the work. The system then places bids on the seller's behalf, lowering the bid as needed, but never below that minimum.",
      "Your minimum is secret. Competing sellers never see it, and it is only used to place bids on your behalf.",
      "The first seller to enter a given minimum owns it. If another seller later enters the same amount, the bid at that price stays with the first seller, and the other seller has to go lower to take the lead.",
    ],
  },
  {
    id: "how-do-i-register",
    question: "How do I register?",
    answer: [
      "Select Sign up and enter your name, your organization name, your organization type (buyer, seller or consultant) and your mobile number, then select Request Code.",
      "We send an SMS access code to that mobile number. Enter the verification code to continue, then read and accept the privacy policy and the terms and conditions.",
      "Next, fill in the registration form for your organization type and submit it. Your application is reviewed, and you are notified by email once the review is complete.",
    ],
  },
  {
    id: "seller-free-trial",
    question: "Is there a free trial for sellers?",
    answer: [
      "Yes. Sellers get a 7-day free trial. Card details are entered in the Payment section of the seller registration form, but nothing is charged during the 7-day free trial.",
    ],
  },
  {
    id: "what-are-the-fees",
    question: "What are the fees?",
    answer: [
      "Sellers pay a signup fee of $108.15 and a monthly seller charge of $11.55. All amounts are in Canadian dollars.",
      "Buyers pay a per-auction fee. The per-auction fee is quoted for each auction and agreed with the buyer before the project is posted.",
    ],
  },
  {
    id: "accepted-cards",
    question: "Which credit cards do you accept?",
    answer: [
      "We accept Visa, Mastercard and American Express. Card payments are handled by our payment processor, and we never store your full card number.",
    ],
  },
  {
    id: "reset-password",
    question: "How do I reset my password?",
    answer: [
      "On the sign-in page, select Forgot password, enter the email address for your account and submit the form. We will email you a link to reset your password.",
      "Open the link and enter your new password twice. Passwords must be at least 6 characters long. If the link has expired or does not work, request a new one from the Forgot password page.",
    ],
  },
  {
    id: "contact-support",
    question: "How do I contact support?",
    answer: [
      "Email us at support@upstream-marketplace.ca. Please include your name, your organization name and a short description of your question so we can help you quickly.",
    ],
  },
];
