// @ts-nocheck
import { Window } from "happy-dom";
import { describe, expect, it } from "vitest";
import { renderHub } from "../../examples/browser/app.js";
import { useHubMock } from "../helpers/mock-server";

const { mock, client } = useHubMock();

function mount() {
  const window = new Window();
  const root = window.document.createElement("main") as unknown as HTMLElement;
  window.document.body.append(root as never);
  return root;
}

describe("examples/browser/app.js", () => {
  it("renders the hub name, the top stakers and a wallet's points", async () => {
    const root = mount();
    await renderHub(root, client(), "0x1111111111111111111111111111111111111111");
    expect(root.querySelector("h1")?.textContent).toBe("Alpha Hub");
    expect(root.querySelectorAll("li")).toHaveLength(5);
    expect(root.querySelector("li")?.textContent).toBe("0x1111111111111111111111111111111111111111 — 52000 staked");
    expect(root.querySelector("p")?.textContent).toBe("0x1111111111111111111111111111111111111111: 250 points");
    expect(mock.requests.every((request) => !("x-api-signature" in request.headers))).toBe(true);
  });

  it("explains a key of another hub", async () => {
    const root = mount();
    await renderHub(root, client({ clientId: "pk_beta_demo" }));
    expect(root.textContent).toBe("This key belongs to another hub.");
    expect(root.dataset.error).toBe("ForbiddenError");
  });

  it("explains an unreachable hub", async () => {
    mock.failNext(10, { status: 502 });
    const root = mount();
    await renderHub(root, client({ retry: 0 }));
    expect(root.textContent).toBe("The hub answered 502.");
  });
});
