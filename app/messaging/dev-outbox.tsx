import { data } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/dev-outbox";
import { outboxOpen } from "./messaging.server";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(appServicesContext);
  const { messaging } = services;
  if (!outboxOpen(services)) throw data(null, { status: 404 });
  return { channels: messaging.outboxChannels, messages: await messaging.listOutbox() };
}

export function meta() {
  return [{ title: pageTitle("Development outbox") }, { name: "robots", content: "noindex" }];
}

const channelNames = { sms: "SMS", email: "E-mail" } as const;

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  const { channels, messages } = loaderData;
  return (
    <div>
      <h1>Development outbox</h1>
      <p>
        These messages were kept here instead of being sent, because{" "}
        {channels.map((channel) => channelNames[channel]).join(" and ")} has no provider configured. Newest first.
      </p>
      {messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ol className="outbox" reversed>
          {messages.map((message) => (
            <li key={message.id} className="card outbox__message">
              <h2 className="outbox__heading">
                {channelNames[message.channel]} to {message.to}
                {message.subject ? `: ${message.subject}` : ""}
              </h2>
              <p className="meta-line">
                <time dateTime={message.createdAt}>{message.createdAt.replace("T", " ").slice(0, 19)} UTC</time>
              </p>
              <pre className="outbox__text">{message.text}</pre>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
