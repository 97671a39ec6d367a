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
  function loadTexts() {
    /* The English texts are a classic script (works from file://), loaded only when needed. */
    return new Promise(function (resolve) {
      if (window.KB_TEXTS) { resolve(window.KB_TEXTS); return; }
      var tag = document.createElement("script");
      tag.src = new URL("assets/search-text.js", root).href;
      tag.onload = function () { resolve(window.KB_TEXTS || {}); };
      tag.onerror = function () { resolve({}); };
      document.head.appendChild(tag);
    });
  }
  var folded = null;
  function snippet(text, words) {
    var lower = fold(text);
    var at = lower.indexOf(words[0]);
    var start = Math.max(0, at - 60);
    var piece = text.slice(start, start + 200);
    return (start > 0 ? "…" : "") + piece + (start + 200 < text.length ? "…" : "");
  }
  async function localSearch(query) {
    var english = await loadTexts();
    var own = data.texts || {};
    if (!folded) {
      folded = data.titles.map(function (entry) {
        var text = (own[entry[2]] || "") + " " + (english[entry[2]] || "");
        return [fold(entry[0]), fold(text), text.trim()];
      });
    }
    var words = fold(query).split(/\s+/).filter(Boolean);
    var hits = [];
    data.titles.forEach(function (entry, i) {
      var label = folded[i][0];
      var all = label + " " + folded[i][1];
      if (!words.every(function (w) { return all.indexOf(w) >= 0; })) { return; }
      var inTitle = words.every(function (w) { return label.indexOf(w) >= 0; });
      hits.push([inTitle ? 0 : 1, i]);
    });
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    hits.slice(0, 100).forEach(function (hit) {
      var entry = data.titles[hit[1]];
      var p = folded[hit[1]][2] ? snippet(folded[hit[1]][2], words) : "";
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = new URL(entry[1], root).href;
      a.textContent = entry[0];
      li.appendChild(a);
      if (p) {
        var para = document.createElement("p");
        para.textContent = p; /* corpus text: shown as text, never as HTML */
        li.appendChild(para);
      }
      list.appendChild(li);
    });
    return hits.length;
  }
  async function fullSearch(query) {
    var pagefind = await import(new URL("pagefind/pagefind.js", root).href);
    await pagefind.options({ baseUrl: root.pathname });
    var search = await pagefind.search(query);
    var results = await Promise.all(search.results.slice(0, 20).map(function (r) { return r.data(); }));
    results.forEach(function (result) {
      /* Sub-results are the sections (headings with ids) of a page: show the ones where the
         words were found most, at most three per page, best first. A rule page's own heading
         (701.54.html#701.54) is the page itself. */
      var page = result.url.split("#")[0];
      var heading = page + "#" + page.split("/").pop().replace(/\.html$/, "");
      var subs = (result.sub_results || []).filter(function (s) {
        return s.url !== result.url && s.url !== heading;
      });
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
        list.textContent = "";
        count = await localSearch(query);
        say(messages.failed + " " + (count ? messages.count : messages.none), { count: count });
        return;
      }
    } else {
      count = await localSearch(query);
      say(messages.local + " " + (count ? messages.count : messages.none), { count: count });
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
