// @ts-nocheck
import { Component, type ReactNode } from "react";
import { ForbiddenError, HubApiError, HubConnectionError, HubSchemaError } from "public-hub-sdk";

/** What a reader should see for an error of the SDK. */
export function describeError(error: unknown): string {
  if (error instanceof ForbiddenError) return "This key belongs to another hub.";
  if (error instanceof HubApiError) return `The hub answered ${error.status}${error.code ? ` (${error.code})` : ""}.`;
  if (error instanceof HubConnectionError) return "The hub cannot be reached right now.";
  if (error instanceof HubSchemaError) return `The hub's ${error.operation} answer is not what this app expects.`;
  return "Something went wrong.";
}

/** Shows the error a suspending query threw (React has no function-component boundary). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: unknown }> {
  override state: { error?: unknown } = {};

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    const name = this.state.error instanceof Error ? this.state.error.name : "unknown";
    return (
      <p role="alert" data-error={name}>
        {describeError(this.state.error)}
      </p>
    );
  }
}
