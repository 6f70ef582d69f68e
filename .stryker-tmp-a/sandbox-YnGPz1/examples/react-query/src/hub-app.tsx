// @ts-nocheck
import { QueryClientProvider, useQuery, useQueryClient, useSuspenseQuery, type QueryClient } from "@tanstack/react-query";
import { Suspense, useMemo, useState, type FormEvent } from "react";
import { leaderboardRows } from "public-hub-sdk";
import { hubKeys, hubQueries } from "public-hub-sdk/query";
import { describeError, ErrorBoundary } from "./error-boundary";
import type { Hub } from "./hub-schemas";

/** The whole page: a hub's name, its top stakers, and a wallet's points on demand. */
export function HubApp({ hub, queryClient }: { hub: Hub; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>
        <Suspense fallback={<p>Loading the hub…</p>}>
          <HubHeader hub={hub} />
        </Suspense>
        <TopStakers hub={hub} />
        <WalletPoints hub={hub} />
      </ErrorBoundary>
    </QueryClientProvider>
  );
}

/** useSuspenseQuery: the name is there when this renders; errors go to the ErrorBoundary. */
function HubHeader({ hub }: { hub: Hub }) {
  const q = useMemo(() => hubQueries(hub), [hub]);
  const { data: config } = useSuspenseQuery(q.hub());
  return <h1>{config.name}</h1>;
}

/** useQuery with its own loading and error states. */
function TopStakers({ hub }: { hub: Hub }) {
  const q = useMemo(() => hubQueries(hub), [hub]);
  const queryClient = useQueryClient();
  const { data, error, isPending, isFetching } = useQuery(q.leaderboard({ limit: 5 }));
  if (isPending) return <p>Loading the leaderboard…</p>;
  if (error) return <p role="alert">{describeError(error)}</p>;
  return (
    <section aria-label="Top stakers">
      <ol>
        {leaderboardRows(data).map((row) => (
          <li key={row.wallet}>
            {row.wallet} — {row.staked} staked
          </li>
        ))}
      </ol>
      {/* Every read of this hub shares the key prefix hubKeys.all(hub). */}
      <button disabled={isFetching} onClick={() => void queryClient.invalidateQueries({ queryKey: hubKeys.all(hub) })}>
        Refresh
      </button>
    </section>
  );
}

/** `enabled` holds the query back until there is a wallet to ask about. */
function WalletPoints({ hub }: { hub: Hub }) {
  const q = useMemo(() => hubQueries(hub), [hub]);
  const [wallet, setWallet] = useState("");
  const { data, error } = useQuery({ ...q.holder(wallet), enabled: wallet !== "" });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setWallet(String(new FormData(event.currentTarget).get("wallet") ?? "").trim());
  };
  return (
    <form onSubmit={submit}>
      <input name="wallet" placeholder="0x…" aria-label="Wallet" />
      <button type="submit">Show points</button>
      {error ? <p role="alert">{describeError(error)}</p> : null}
      {data ? <p data-testid="points">{wallet}: {data.bits} points</p> : null}
    </form>
  );
}
