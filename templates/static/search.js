/* kb site search: rule numbers jump to the rule; words go to kb's own /api/search under
   `kb serve`, to Pagefind's full-text index when the site is served over HTTP by anything else,
   and to the titles index (rules, glossary, cards) when it is opened as files. The count said is
   the count listed. Everything is local: no external request. */
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
  function loadScript(name, value) {
    /* Classic scripts (they work from file://), loaded only when a search needs them. */
    return new Promise(function (resolve) {
      if (window[value]) { resolve(window[value]); return; }
      var tag = document.createElement("script");
      tag.src = new URL("assets/" + name, root).href;
      tag.onload = function () { resolve(window[value] || {}); };
      tag.onerror = function () { resolve({}); };
      document.head.appendChild(tag);
    });
  }
  function loadTexts() {
    return loadScript("search-text.js", "KB_TEXTS");
  }
  var cardData = null;
  function loadCards() {
    /* The cards' titles and texts come in shards (a few thousand cards each, data.cards of
       them), loaded in parallel only when a search needs them and merged in shard order. */
    if (cardData) { return cardData; }
    var lang = form.dataset.lang;
    var names = [];
    for (var i = 0; i < (data.cards || 0); i += 1) { names.push(lang + "-" + i); }
    cardData = Promise.all(names.map(function (name) {
      return new Promise(function (resolve) {
        var shards = window.KB_CARDS || {};
        if (shards[name]) { resolve(shards[name]); return; }
        var tag = document.createElement("script");
        tag.src = new URL("assets/search-cards-" + name + ".js", root).href;
        tag.onload = function () { resolve((window.KB_CARDS || {})[name] || {}); };
        tag.onerror = function () { resolve({}); };
        document.head.appendChild(tag);
      });
    })).then(function (shards) {
      var merged = { titles: [], texts: {} };
      shards.forEach(function (shard) {
        merged.titles = merged.titles.concat(shard.titles || []);
        Object.keys(shard.texts || {}).forEach(function (key) { merged.texts[key] = shard.texts[key]; });
      });
      return merged;
    });
    return cardData;
  }
  var entries = null;
  async function loadEntries() {
    /* The rules and glossary titles come with the page; the cards' shards only on a search. */
    if (entries) { return entries; }
    var cards = await loadCards();
    entries = data.titles.concat(cards.titles);
    Object.keys(cards.texts).forEach(function (key) { extraTexts[key] = cards.texts[key]; });
    return entries;
  }
  var extraTexts = {};
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
    var all = await loadEntries();
    var own = data.texts || {};
    if (!folded) {
      folded = all.map(function (entry) {
        var key = entry[2];
        var text = (own[key] || "") + " " + (english[key] || "") + " " + (extraTexts[key] || "");
        return [fold(entry[0]), fold(text), text.trim()];
      });
    }
    var words = fold(query).split(/\s+/).filter(Boolean);
    var hits = [];
    all.forEach(function (entry, i) {
      var label = folded[i][0];
      var all = label + " " + folded[i][1];
      if (!words.every(function (w) { return all.indexOf(w) >= 0; })) { return; }
      var inTitle = words.every(function (w) { return label.indexOf(w) >= 0; });
      hits.push([inTitle ? 0 : 1, i]);
    });
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    hits.slice(0, 100).forEach(function (hit) {
      var entry = all[hit[1]];
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
  async function apiSearch(query) {
    /* Under `kb serve`: kb's own search (the ranking of `kb search`). Static hosting has no
       /api/: the request fails or answers something else, and Pagefind is used instead. */
    var url = new URL("api/search", root);
    url.searchParams.set("q", query);
    url.searchParams.set("lang", form.dataset.lang);
    url.searchParams.set("limit", "50");
    var response = await fetch(url.href, { headers: { Accept: "application/json" } });
    var type = response.headers.get("Content-Type") || "";
    if (!response.ok || type.indexOf("json") < 0) { return null; }
    var answer = await response.json();
    if (!answer || !Array.isArray(answer.results)) { return null; }
    answer.results.forEach(function (r) {
      if (!r.url) { return; }
      var title = r.title || r.number || r.key;
      item(new URL(r.url.replace(/^\//, ""), root).href, title, r.snippet_html || "");
    });
    return { shown: list.children.length, total: answer.total || 0 };
  }
  async function fullSearch(query) {
    var pagefind = await import(new URL("pagefind/pagefind.js", root).href);
    await pagefind.options({ baseUrl: root.pathname });
    var search = await pagefind.search(query);
    var results = await Promise.all(search.results.slice(0, 20).map(function (r) { return r.data(); }));
    results.forEach(function (result) {
      /* A rule page is listed itself first (the rule ranks before its subrules), then the
         sections where the words were found most: at most two more per page. A glossary
         entry or subrule (a heading with an id) is listed as itself. */
      var page = result.url.split("#")[0];
      var heading = page + "#" + page.split("/").pop().replace(/\.html$/, "");
      var subs = (result.sub_results || []).filter(function (s) {
        return s.url !== result.url && s.url !== heading;
      });
      subs.sort(function (a, b) { return (b.locations || []).length - (a.locations || []).length; });
      var isRule = /\/rules\/\d{3}\.\d+\.html$/.test(page);
      if (!subs.length || isRule) {
        item(result.url, result.meta.title, result.excerpt);
      }
      subs.slice(0, isRule ? 2 : 3).forEach(function (sub) {
        item(sub.url, result.meta.title + " — " + sub.title, sub.excerpt);
      });
    });
    /* Card pages are not in Pagefind's index (tens of thousands of them): cards whose names
       hold every word come from the cards' search shards, after the rules and glossary. */
    var cardsFound = await cardTitles(query);
    return { shown: list.children.length, total: search.results.length + cardsFound };
  }
  async function cardTitles(query) {
    var cards = await loadCards();
    var words = fold(query).split(/\s+/).filter(Boolean);
    var found = 0;
    (cards.titles || []).forEach(function (entry) {
      var label = fold(entry[0]);
      if (!words.length || !words.every(function (w) { return label.indexOf(w) >= 0; })) { return; }
      found += 1;
      if (found <= 20) { item(new URL(entry[1], root).href, entry[0], ""); }
    });
    return found;
  }
  function counted(found) {
    /* The count said is the count listed; when more were found, say of how many. */
    if (!found.shown) { return messages.none; }
    if (found.total > found.shown && messages.countOf) {
      return messages.countOf.split("{total}").join(String(found.total));
    }
    return messages.count;
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
    var found = null;
    if (location.protocol === "http:" || location.protocol === "https:") {
      say(messages.searching);
      try {
        found = await apiSearch(query);
      } catch (error) {
        found = null;
      }
      if (!found) {
        list.textContent = "";
        try {
          found = await fullSearch(query);
        } catch (error) {
          list.textContent = "";
          var count = await localSearch(query);
          say(messages.failed + " " + (count ? messages.count : messages.none), { count: count });
          return;
        }
      }
    } else {
      var local = await localSearch(query);
      say(messages.local + " " + (local ? messages.count : messages.none), { count: local });
      return;
    }
    if (number && !data.rules[number] && !found.shown) { return; }
    say(counted(found), { count: found.shown });
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
