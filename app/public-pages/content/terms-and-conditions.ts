import type { LegalSection } from "./legal-section";

export const lastUpdated = "2026-11-01";

export const legalSections: LegalSection[] = [
  {
    id: "acceptance-of-terms",
    heading: "Acceptance of these terms",
    paragraphs: [
      "These terms and conditions ('Terms') govern your access to and use of the website and services operated by Upstream Reverse Auction Marketplace ('Upstream Marketplace', 'the Marketplace', 'we', 'us' or 'our').",
      "By registering, signing in or otherwise using the Marketplace, you agree to these Terms and to our privacy policy on behalf of yourself and the organization you represent. You confirm that you have the authority to bind that organization. If you do not agree, do not use the Marketplace.",
    ],
  },
  {
    id: "the-marketplace",
    heading: "The Marketplace",
    paragraphs: [
      "Upstream Marketplace is an online reverse-auction marketplace for upstream oil and gas goods and services. Buyers post projects, prescreened sellers bid on them, and consultants act as auctioneers who match buyer requirements with seller capacity and evaluate bids technically.",
      "The Marketplace provides the venue and the tools for auctions. Unless we expressly agree otherwise in writing, we are not a party to any contract for goods or services between a buyer and a seller, and we are not responsible for the performance, quality, safety or legality of the work, or for payment between buyers and sellers.",
      "Consultants are independent of the Marketplace. A consultant's technical evaluation is provided to the buyer and does not replace the buyer's own judgment or due diligence.",
    ],
  },
  {
    id: "accounts-and-prescreening",
    heading: "Accounts and prescreening",
    paragraphs: [
      "To register, you must verify a mobile number with an SMS access code, accept the privacy policy and these Terms, and complete the registration form for your organization type. Every application is reviewed, and we will notify you by email of the outcome. We may accept or decline any application at our discretion.",
      "Sellers are prescreened on safety, insurance and WCB registrations. Sellers must provide accurate, complete and current information about their safety program, safety certifications, insurance coverage and WCB registrations, and must update it promptly when anything changes or expires. When work is performed on a buyer's worksite, the buyer must be named as an additional insured on the seller's insurance, not only as a certificate holder.",
      "Prescreening is based on information supplied by the seller at a point in time. It is not a guarantee of a seller's competence, financial standing or safety performance. Buyers remain responsible for confirming that a seller meets their own requirements before work begins.",
      "You are responsible for keeping your sign-in details confidential and for all activity under your account. Accounts are personal to the named user and must not be shared. Tell us right away at support@upstream-marketplace.ca if you suspect unauthorized use of your account.",
    ],
  },
  {
    id: "auctions-and-bidding",
    heading: "Auctions and bidding",
    paragraphs: [
      "Buyers choose which pre-qualified sellers are invited to each auction. Only invited sellers may bid. Each auction has a set closing time, and bids are accepted only while the auction is open.",
      "The reserve price is the buyer's maximum. Bids must be at or below the reserve price. In a reverse auction, sellers bid the price down during the bidding period. In a closed-bid auction, each invited seller makes one sealed submission with supporting documents before the closing time. In both formats, the lowest-cost qualified seller wins, subject to the technical evaluation of the bids.",
      "Sellers may use the auto-bid feature, which places bids on the seller's behalf down to a secret minimum set by the seller. The first seller to enter a given minimum owns it. Bids placed by auto-bid are the seller's own bids and are binding in the same way as bids placed manually.",
      "Only the buyer and the auctioneer see the bid list. A seller sees only their own minimum bid.",
    ],
  },
  {
    id: "bids-are-binding",
    heading: "Bids are binding",
    paragraphs: [
      "Every bid is a binding offer to supply the goods or services described in the project at the price bid, on the terms set out in the project and its supporting documents. Bids cannot be retracted, withdrawn or changed to a higher amount once placed.",
      "Before bidding, sellers must review the scope of work, the supporting documents and their own costs. A seller whose bid is selected must enter into the contract with the buyer and perform the work at the price bid. Failing to honour a winning bid may lead to suspension or termination of the seller's account, in addition to any remedies the buyer may have.",
      "A buyer who posts a project confirms that it has a genuine intention to award the work if a qualified bid at or below the reserve price is received.",
    ],
  },
  {
    id: "confidentiality",
    heading: "Confidentiality",
    paragraphs: [
      "Auction information, bids, bid lists, auto-bid minimums, supporting documents, scopes of work and pricing shared through the Marketplace are confidential. You may use them only to take part in the auction they relate to and to perform any resulting contract. You must not disclose them to anyone else, except to your own employees and advisers who need to know and are bound by similar obligations of confidentiality, or as required by law.",
      "Seller identities are hidden from competing bidders. You must not attempt to identify other bidders in an auction, or disclose your own bids or identity to competing sellers in order to influence the outcome.",
      "These confidentiality obligations continue after an auction closes and after your account ends.",
    ],
  },
  {
    id: "fees-and-subscriptions",
    heading: "Fees and subscriptions",
    paragraphs: [
      "Sellers receive a 7-day free trial at no charge. After the trial, a yearly seller subscription is charged to the card provided in the Payment section of the seller registration form. The charges at registration are:",
    ],
    items: [
      "7-day free trial: no charge.",
      "Yearly subscription: $200.00, starting after the trial.",
      "Processing fee: $7.00.",
      "GST: $10.35.",
      "Total: $217.35.",
      "The yearly subscription is non-refundable, including for any unused part of the year.",
      "If you cancel before the 7-day free trial ends, you will not be charged. You may cancel at any time after that by emailing support@upstream-marketplace.ca, and no further yearly charges will be made, but amounts already charged are not refunded.",
      "Buyers pay a per-auction fee, quoted for each auction and agreed with the buyer before the project is posted.",
      "All amounts are in Canadian dollars. We accept Visa, Mastercard and American Express, and card payments are processed by our payment processor.",
      "We may change our fees by giving registered users at least 30 days' notice by email. A change does not affect amounts already charged.",
    ],
  },
  {
    id: "restrictions-on-use",
    heading: "Restrictions on use",
    paragraphs: [
      "You may use the Marketplace only for lawful business purposes related to upstream oil and gas goods and services. You must not, and must not help or allow anyone else to:",
    ],
    items: [
      "Scrape, crawl, harvest or copy data from the Marketplace by automated means, including bots, spiders and scripts.",
      "Copy, modify, decompile, disassemble or reverse engineer any part of the Marketplace, or try to discover its source code.",
      "Interfere with or disrupt the Marketplace, its servers or networks, including by introducing viruses or other harmful code, overloading the service, or bypassing any security or access control.",
      "Provide false, misleading or incomplete information, including in registration, prescreening, insurance, WCB or safety documents.",
      "Collude with other bidders, rig bids, agree on prices or divide work, or place shill bids or any bid you do not intend to honour.",
      "Post a project, invite sellers or set a reserve price only to test market prices, without a genuine intention to award the work.",
      "Share your account or sign-in details, use another person's account, or register more than one account for the same organization to gain an advantage.",
      "Attempt to identify competing bidders, or access any information you are not authorized to see.",
      "Contact other users to solicit them away from the Marketplace using information obtained through it.",
      "Use the Marketplace in breach of any applicable law, including competition law, privacy law and occupational health and safety law.",
    ],
  },
  {
    id: "intellectual-property",
    heading: "Intellectual property",
    paragraphs: [
      "The Marketplace, including its software, design, text and graphics, is owned by us or our licensors and is protected by copyright and other laws. Subject to these Terms, we grant you a limited, non-exclusive, non-transferable licence to use the Marketplace for its intended purpose while your account is active.",
      "You keep ownership of the information and documents you submit. You grant us a licence to store, copy and display them as needed to operate the Marketplace, including showing them to the buyers, sellers and consultants entitled to see them under these Terms.",
    ],
  },
  {
    id: "disclaimer-of-warranties",
    heading: "Disclaimer of warranties",
    paragraphs: [
      "The Marketplace is provided 'as is' and 'as available', without warranties, representations or conditions of any kind, whether express, implied or statutory, including implied warranties or conditions of merchantability, fitness for a particular purpose, title and non-infringement.",
      "We do not warrant that the Marketplace will be uninterrupted, timely, secure or free of errors, that any auction will close as scheduled, or that information provided by other users, including prescreening information, bids and supporting documents, is accurate or complete.",
    ],
  },
  {
    id: "limitation-of-liability",
    heading: "Limitation of liability",
    paragraphs: [
      "To the fullest extent permitted by law, we will not be liable for any indirect, incidental, special, consequential or punitive damages, or for any loss of profits, revenue, business, contracts or data, arising out of or in connection with the Marketplace or these Terms, even if we were advised of the possibility of such damages.",
      "We are not liable for the acts or omissions of buyers, sellers or consultants, for any contract between them, or for any work performed or not performed as a result of an auction.",
      "To the fullest extent permitted by law, our total liability to you for all claims arising out of or in connection with the Marketplace or these Terms is limited to the fees you paid to us in the twelve months before the event giving rise to the claim.",
    ],
  },
  {
    id: "indemnity",
    heading: "Indemnity",
    paragraphs: [
      "You will indemnify and hold harmless Upstream Marketplace and its directors, officers, employees and agents from and against any claims, losses, damages, liabilities, costs and expenses, including reasonable legal fees, arising out of your use of the Marketplace, your bids or projects, any contract you enter into with another user, information you provide, or your breach of these Terms or of any law.",
    ],
  },
  {
    id: "suspension-and-termination",
    heading: "Suspension and termination",
    paragraphs: [
      "You may close your account at any time by emailing support@upstream-marketplace.ca. Closing your account does not cancel bids already placed or release you from contracts arising from auctions you have won.",
      "We may suspend or terminate your account, remove content or cancel an auction, with or without notice, if we reasonably believe that you have breached these Terms, provided false information, failed to keep prescreening information current, failed to honour a bid, or used the Marketplace in a way that may harm us or other users.",
      "On termination, your right to use the Marketplace ends. Sections that by their nature should survive termination, including bids are binding, confidentiality, fees already owed, disclaimer of warranties, limitation of liability, indemnity and governing law, continue to apply.",
    ],
  },
  {
    id: "governing-law",
    heading: "Governing law",
    paragraphs: [
      "These Terms are governed by the laws of the Province of Alberta and the federal laws of Canada applicable therein. You agree to submit to the exclusive jurisdiction of the courts of the Province of Alberta for any dispute arising out of or in connection with these Terms or the Marketplace.",
    ],
  },
  {
    id: "changes-to-these-terms",
    heading: "Changes to these terms",
    paragraphs: [
      "We may change these Terms from time to time. The date at the top of these Terms shows when they were last updated. If we make a material change, we will notify registered users by email or by a notice when they sign in before the change takes effect.",
      "Changes do not apply to auctions that are already open when the change takes effect. Continuing to use the Marketplace after a change takes effect means you accept the updated Terms.",
    ],
  },
  {
    id: "general",
    heading: "General",
    paragraphs: [
      "These Terms, together with the privacy policy and any project-specific terms posted with an auction, are the entire agreement between you and us about the Marketplace. If any part of these Terms is found to be unenforceable, the rest remains in effect. Our failure to enforce any part of these Terms is not a waiver of our right to do so later. You may not assign these Terms without our written consent.",
    ],
  },
  {
    id: "contact",
    heading: "Contact",
    paragraphs: ["If you have questions about these Terms, please contact us at support@upstream-marketplace.ca."],
  },
];
