import type { LegalSection } from "./legal-section";

export const lastUpdated = "2026-11-01";

export const legalSections: LegalSection[] = [
  {
    id: "about-this-policy",
    heading: "About this policy",
    paragraphs: [
      "This privacy policy explains how Upstream Reverse Auction Marketplace ('Upstream Marketplace', 'the Marketplace', 'we', 'us' or 'our') collects, uses, discloses and protects personal information when you visit our website, register an organization, or take part in auctions as a buyer, seller or consultant.",
      "Upstream Marketplace is a business-to-business service. Most of the information we handle relates to organizations, but some of it is personal information about individuals, such as the name, mobile number and email address of the person who registers, and the contacts and key personnel an organization lists. This policy applies to that personal information.",
      "Please read this policy carefully. You will be asked to accept it during registration, and by using the Marketplace you agree to the practices it describes.",
    ],
  },
  {
    id: "applicable-privacy-laws",
    heading: "Applicable privacy laws",
    paragraphs: [
      "We handle personal information in accordance with the Personal Information Protection Act of Alberta (PIPA) and, where it applies, the federal Personal Information Protection and Electronic Documents Act (PIPEDA).",
      "These laws require us to collect, use and disclose personal information only for purposes that a reasonable person would consider appropriate in the circumstances, to obtain consent where required, to protect the information we hold, and to give individuals access to their own personal information.",
    ],
  },
  {
    id: "information-we-collect",
    heading: "Information we collect",
    paragraphs: [
      "We collect only the information we need to run the Marketplace. Depending on how you use it, this may include:",
    ],
    items: [
      "Registration request details: your name, your organization's name, your organization type (buyer, seller or consultant) and your mobile number.",
      "Your mobile number, used to send you an SMS access code so we can verify that you control the number before registration continues.",
      "Organization and contact details: company name, address, phone, fax and email; primary, alternate, accounting, sales and operations contacts; billing preference; primary industry; timezone; and service areas.",
      "For sellers: safety program information, safety certifications and their expiry dates, insurance coverage levels and expiry dates, WCB registration numbers and expiry dates, service categories, and documents that support this information.",
      "For seller key personnel: work experience, skills, certifications and technical training or education that the seller chooses to provide.",
      "Account information: your email address, your password (stored only in a securely hashed form) and your timezone.",
      "Auction activity: projects posted, invitations, bids, auto-bid minimums, supporting documents submitted with closed bids, and messages related to an auction.",
      "Payment information: the cardholder name, card brand, last four digits and expiry date, as returned by our payment processor. Full card numbers and security codes are entered directly with the payment processor and are never stored by us.",
      "Technical information: the session cookie described below, and server logs that record IP addresses, browser type, pages requested and the date and time of each request.",
      "Feedback you choose to give us, for example in the Feedback section of the seller registration form or by email.",
    ],
  },
  {
    id: "why-we-collect-it",
    heading: "Why we collect it",
    paragraphs: ["We use personal information for the following purposes:"],
    items: [
      "To verify your identity and mobile number when you register.",
      "To review registration applications and notify you of the outcome by email.",
      "To prescreen sellers on safety, insurance and WCB registrations, and to show buyers and auctioneers each seller's prescreening status.",
      "To create and manage accounts, including sign-in, password resets and account setup.",
      "To run auctions: inviting sellers, recording bids, operating the auto-bid feature, and supporting the technical evaluation of bids by consultants.",
      "To process seller subscriptions, buyer per-auction fees and related payments, and to keep accounting and tax records.",
      "To send service messages about your account, your auctions, expiring insurance, WCB or certification documents, and changes to our terms or this policy.",
      "To keep the Marketplace secure, investigate misuse such as collusion or shill bidding, and meet our legal and regulatory obligations.",
      "To respond to your questions and improve the Marketplace.",
    ],
  },
  {
    id: "consent",
    heading: "Consent",
    paragraphs: [
      "We ask for your consent when you register, by asking you to read and accept this policy before you complete the registration form. Where the law allows, consent may also be implied, for example when you provide a business contact's details so that we can reach them about an auction.",
      "If you provide personal information about someone else, such as an alternate contact, an accounting contact or a member of your key personnel, you confirm that you have their permission to share it with us for the purposes described in this policy.",
      "You may withdraw your consent at any time, subject to legal or contractual restrictions and reasonable notice, by contacting our privacy officer. Withdrawing consent may mean that we can no longer provide some or all of the Marketplace to you. For example, we cannot keep a seller prescreened without current insurance and WCB information.",
    ],
  },
  {
    id: "how-we-disclose-information",
    heading: "How we disclose information",
    paragraphs: [
      "We do not sell, rent or trade personal information. We disclose it only as described below.",
      "Within the Marketplace, buyers and consultants can see a seller's prescreening status and the information that supports it, so that they can decide which pre-qualified sellers to invite and evaluate bids. Seller identities are hidden from competing bidders: other sellers in an auction cannot see who you are. Only the buyer and the auctioneer see the bid list, and a seller sees only their own minimum bid.",
      "We also disclose personal information in these cases:",
    ],
    items: [
      "To service providers who work on our behalf, such as our hosting provider, SMS provider, email provider and payment processor. They may use the information only to provide services to us and must protect it.",
      "When required or authorized by law, for example in response to a court order, a subpoena or a request from a regulator or law enforcement agency.",
      "To protect the rights, safety or property of the Marketplace, our users or others, including to investigate fraud or collusion.",
      "As part of a proposed or completed sale, merger or reorganization of our business, where the recipient agrees to protect the information in line with this policy.",
      "With your consent, in any other case.",
    ],
  },
  {
    id: "service-providers-outside-canada",
    heading: "Service providers outside Canada",
    paragraphs: [
      "Some of our service providers, including the payment processor and email or SMS providers, may store or process personal information outside Canada, for example in the United States. When information is outside Canada, it is subject to the laws of that country and may be accessed by its courts, law enforcement and national security authorities.",
      "You can contact our privacy officer for written information about our policies and practices for service providers outside Canada, or to ask questions about how those service providers collect, use, disclose or store personal information for us.",
    ],
  },
  {
    id: "payment-card-information",
    heading: "Payment card information",
    paragraphs: [
      "Seller subscriptions and other card payments are processed by a third-party payment processor that meets the Payment Card Industry Data Security Standard (PCI DSS). We accept Visa, Mastercard and American Express.",
      "Your card number and security code are sent directly to the payment processor. We never store card numbers or security codes on our systems. We keep only the limited details the processor returns to us, such as the card brand, the last four digits and the expiry date, so that we can identify the card on file and keep payment records.",
    ],
  },
  {
    id: "retention",
    heading: "Retention",
    paragraphs: [
      "We keep personal information only as long as we need it for the purposes described in this policy, or as long as the law requires.",
      "Account, organization and prescreening information is kept while your account is active. Auction records, including bids and the evaluation of bids, are kept after an auction closes so that buyers, sellers and the Marketplace have a record of what was agreed. Financial records are kept for the periods required by tax law, generally at least six years.",
      "If we use personal information to make a decision that directly affects you, such as declining a registration application, we keep it for at least one year after the decision so that you have a reasonable opportunity to ask for access to it.",
      "When information is no longer needed, we securely destroy it or make it anonymous.",
    ],
  },
  {
    id: "security",
    heading: "Security",
    paragraphs: [
      "We protect personal information with safeguards that match its sensitivity. These include encrypted connections (HTTPS) for all pages, hashed passwords, access controls that limit staff access to those who need it for their work, and monitoring of our systems for misuse.",
      "No method of transmission or storage is completely secure, so we cannot guarantee absolute security. You can help by keeping your password private, not sharing your account, and signing out when you use a shared computer. If you believe your account has been compromised, contact us right away.",
      "If a breach of security creates a real risk of significant harm to individuals, we will notify the affected individuals and the appropriate privacy commissioner as the law requires.",
    ],
  },
  {
    id: "access-and-correction",
    heading: "Access and correction",
    paragraphs: [
      "You have the right to ask for access to the personal information we hold about you, to ask how it has been used and to whom it has been disclosed, and to ask us to correct it if it is inaccurate or incomplete.",
      "To make a request, email our privacy officer. We may ask you to confirm your identity before we respond. We will respond within the time allowed by law, normally 45 days, and will explain our reasons if we cannot give you access to some or all of the information.",
      "Much of your organization's information can also be kept up to date by the account holder. Sellers are responsible for keeping insurance, WCB and certification details current.",
    ],
  },
  {
    id: "cookies",
    heading: "Cookies",
    paragraphs: [
      "We use a single session cookie to keep you signed in and to protect your session while you use the Marketplace. It contains no personal details beyond a session identifier and expires when you sign out or when the session ends.",
      "We do not use advertising trackers, third-party analytics cookies or social media pixels, and we do not track you across other websites. If you block the session cookie in your browser, you can still read the public pages, but you will not be able to sign in.",
    ],
  },
  {
    id: "privacy-officer",
    heading: "Contacting our privacy officer",
    paragraphs: [
      "Our privacy officer is responsible for our compliance with this policy. If you have a question, a request for access or correction, or a concern about how we handle personal information, please email support@upstream-marketplace.ca with Attention: Privacy Officer in the subject line.",
      "If you are not satisfied with our response, you may contact the Office of the Information and Privacy Commissioner of Alberta or the Office of the Privacy Commissioner of Canada.",
    ],
  },
  {
    id: "changes-to-this-policy",
    heading: "Changes to this policy",
    paragraphs: [
      "We may update this policy from time to time, for example when we add features or when the law changes. The date at the top of this policy shows when it was last updated.",
      "If we make a material change, we will tell registered users by email or by a notice when they sign in before the change takes effect. Continuing to use the Marketplace after a change takes effect means you accept the updated policy.",
    ],
  },
  {
    id: "governing-law",
    heading: "Governing law",
    paragraphs: [
      "This privacy policy is governed by the laws of the Province of Alberta and the federal laws of Canada applicable therein.",
    ],
  },
];
