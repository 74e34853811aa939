// remem's web page: the little it needs beyond plain forms.
// Forms marked data-confirm ask first; the project box reloads the page on Enter.
document.addEventListener("submit", (event) => {
  const message = event.target.dataset && event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
