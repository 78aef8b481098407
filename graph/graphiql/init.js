// Starts GraphiQL against the endpoint that served the page. Kept out of
// the HTML so that the page's Content-Security-Policy can forbid inline
// scripts.
(function () {
  var url = window.location.pathname.replace(/\/$/, '');
  var fetcher = GraphiQL.createFetcher({ url: url });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultEditorToolsVisibility: true,
      defaultHeaders: JSON.stringify({ Authorization: 'Bearer <accessToken from signup or login>' }, null, 2),
      shouldPersistHeaders: false,
    })
  );
})();
