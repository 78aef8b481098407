// Starts GraphiQL against the endpoint that served the page. Kept out of
// the HTML so that the page's Content-Security-Policy can forbid inline
// scripts.
(function () {
  var url = window.location.pathname.replace(/\/$/, '');
  // Subscriptions go over a WebSocket to the same endpoint; the headers
  // typed into GraphiQL (the bearer token) travel in connection_init.
  var wsScheme = window.location.protocol === 'https:' ? 'wss://' : 'ws://';
  var fetcher = GraphiQL.createFetcher({ url: url, subscriptionUrl: wsScheme + window.location.host + url });
  var defaultQuery = [
    '# einvoice portal API',
    '#',
    '# 1. Run Signup (or Login) and copy its accessToken.',
    '# 2. Under Headers, enter {"Authorization": "Bearer <accessToken>"}.',
    '# 3. Run Me.',
    '',
    'mutation Signup {',
    '  signup(input: {email: "you@example.com", password: "a long passphrase", organizationName: "Acme", organizationSlug: "acme"}) {',
    '    accessToken',
    '  }',
    '}',
    '',
    'query Me {',
    '  me {',
    '    email',
    '    organizations { edges { node { name slug role',
    '      projects { edges { node { id name environment authority { configured }',
    '        apiKeys { edges { node { keyName clientId secretLast4 status lastUsedAt } } }',
    '      } } }',
    '    } } }',
    '  }',
    '}',
    '',
  ].join('\n');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: defaultQuery,
      defaultEditorToolsVisibility: true,
      shouldPersistHeaders: false,
    })
  );
})();
