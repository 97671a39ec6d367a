/* kb site search: rule numbers jump to the rule; words go to Pagefind's full-text index when the
   site is served over HTTP, and to the titles index (rules, glossary, cards) when it is opened
   as files. Everything is local: no external request. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = new URL("../", script.src);
  var data = window.KB_SEARCH || { rules: {}, titles: [] };
  var form = document.querySelector("form.search-page");
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var messages = document.getElementById("search-messages").dataset;
  var NUMBER = /^(\d{3}(\.\d{1,3}[a-z]?)?|[1-9])$/;

  function say(text, values) {
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(values[key]);
    });
    status.textContent = text;
  }
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function ruleNumber(query) {
    var q = query.trim().replace(/^(rule|règle|regla|r\.)\s*/i, "").replace(/\.$/, "");
    return NUMBER.test(q) ? q : null;
  }
  function item(href, title, excerptHtml) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = href;
    a.textContent = title;
    li.appendChild(a);
    if (excerptHtml) {
      var p = document.createElement("p");
      p.innerHTML = excerptHtml; /* Pagefind's excerpt: escaped page text with <mark> */
      li.appendChild(p);
    }
    list.appendChild(li);
  }
  function titleSearch(query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    var hits = data.titles.filter(function (entry) {
      var label = fold(entry[0]);
      return words.every(function (w) { return label.indexOf(w) >= 0; });
    }).slice(0, 100);
    hits.forEach(function (entry) { item(new URL(entry[1], root).href, entry[0]); });
    return hits.length;
  }
  async function fullSearch(query) {
    var pagefind = await import(new URL("pagefind/pagefind.js", root).href);
    await pagefind.options({ baseUrl: root.pathname });
    var search = await pagefind.search(query);
    var results = await Promise.all(search.results.slice(0, 20).map(function (r) { return r.data(); }));
    results.forEach(function (result) {
      /* Sub-results are the rules (headings with ids) of a chapter page: show the ones where
         the words were found most, at most three per page, best first. */
      var subs = (result.sub_results || []).filter(function (s) { return s.url !== result.url; });
      subs.sort(function (a, b) { return (b.locations || []).length - (a.locations || []).length; });
      if (!subs.length) {
        item(result.url, result.meta.title, result.excerpt);
        return;
      }
      subs.slice(0, 3).forEach(function (sub) {
        item(sub.url, result.meta.title + " — " + sub.title, sub.excerpt);
      });
    });
    return search.results.length;
  }
  async function run(query) {
    list.textContent = "";
    if (!query.trim()) { status.textContent = ""; return; }
    var number = ruleNumber(query);
    if (number) {
      if (data.rules[number]) {
        say(messages.jump, { number: number });
        location.replace(new URL(data.rules[number], root).href);
        return;
      }
      say(messages.unknownRule, { number: number });
    }
    var count;
    if (location.protocol === "http:" || location.protocol === "https:") {
      say(messages.searching);
      try {
        count = await fullSearch(query);
      } catch (error) {
        say(messages.failed);
        count = titleSearch(query);
      }
    } else {
      count = titleSearch(query);
      say(messages.titlesOnly);
      if (!count) { return; }
      status.textContent = messages.titlesOnly + " " + messages.count.split("{count}").join(count);
      return;
    }
    if (number && !data.rules[number] && !count) { return; }
    say(count ? messages.count : messages.none, { count: count });
  }
  var query = new URLSearchParams(location.search).get("q") || "";
  input.value = query;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var q = input.value;
    history.replaceState(null, "", "?q=" + encodeURIComponent(q));
    run(q);
  });
  run(query);
})();
