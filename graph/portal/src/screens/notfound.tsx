import { ErrorBox, Page } from '../ui/kit';

export function NotFound(props: { error?: unknown }) {
  return (
    <Page title={props.error ? 'Something went wrong' : 'Page not found'}>
      {props.error ? <ErrorBox error={props.error} /> : <p>There is nothing at this address.</p>}
      <p>
        <a href="/">Go to your projects</a>
      </p>
    </Page>
  );
}
