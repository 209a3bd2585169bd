//! Reading a text as a reader reads its facts: words, and figures (a number
//! with its sign and what it measures, a time, a date, a code), each with
//! where it stands in the text. docs/typed-api.md states the reading.
//! (One reader, each form of a figure a short method.)

use std::borrow::Cow;
use std::ops::Range;

pub(crate) use super::figure::{Figure, Kind, Token, Unit};
use super::lex::{Gap, Lex, Lexeme, lex};
use super::lexicon::{Lexicon, Word};
use super::number::Decimal;
use super::words::{NumberWords, dates, number_words};

/// The words and figures of `text`.
pub(crate) fn read<'t>(text: &'t str, lexicon: &'static Lexicon) -> Vec<Token<'t>> {
    let lexemes = lex(text, lexicon);
    let number_words = number_words(&lexemes, lexicon);
    let mut reader = Reader {
        text,
        lexemes: &lexemes,
        lexicon,
        out: Vec::with_capacity(lexemes.len()),
    };
    let mut at = 0;
    while at < lexemes.len() {
        at = match number_words.iter().find(|w| w.start == at) {
            Some(words) => reader.number_words(words),
            None => reader.next(at),
        };
    }
    let mut out = reader.out;
    let spoken = out.iter().any(|t| {
        matches!(t.kind, Kind::Figure(Figure::Number { .. }))
            && !text[t.span.clone()].contains(|c: char| c.is_ascii_digit())
    });
    if spoken {
        super::spoken::years_in_pairs(text, &mut out);
        super::spoken::money_with_minor(text, &mut out);
        super::spoken::spoken_times(text, &mut out);
        super::spoken::digits_one_by_one(text, &mut out);
    }
    dates(&mut out);
    out
}

struct Reader<'t, 'l> {
    text: &'t str,
    lexemes: &'l [Lexeme<'t>],
    lexicon: &'static Lexicon,
    out: Vec<Token<'t>>,
}

impl<'t, 'l> Reader<'t, 'l> {
    fn lex(&self, at: usize) -> Option<&'l Lex<'t>> {
        self.lexemes.get(at).map(|l| &l.lex)
    }

    fn gap(&self, at: usize) -> Option<Gap> {
        self.lexemes.get(at).map(|l| l.gap)
    }

    /// The lexeme at `at` if it touches the one before it.
    fn touching(&self, at: usize) -> Option<&'l Lex<'t>> {
        self.lexemes
            .get(at)
            .filter(|l| l.gap == Gap::None)
            .map(|l| &l.lex)
    }

    /// The lexicon's entry for the word at `at`.
    fn entry(&self, at: usize) -> Option<&'static Word> {
        self.lexemes.get(at)?.entry
    }

    fn word(&self, at: usize) -> Option<&'l str> {
        match self.lex(at)? {
            Lex::Word(word) => Some(word),
            _ => None,
        }
    }

    fn digits(&self, at: usize) -> Option<&'l str> {
        match self.lex(at)? {
            Lex::Digits(digits) => Some(digits),
            _ => None,
        }
    }

    fn as_written(&self, at: usize) -> &'t str {
        let text = self.text;
        self.lexemes.get(at).map_or("", |l| &text[l.span.clone()])
    }

    // Inlined: a kind passed by reference is written narrow and read wide,
    // which stalls.
    #[inline(always)]
    fn push(&mut self, kind: Kind<'t>, lexemes: Range<usize>) {
        let start = self.lexemes[lexemes.start].span.start;
        let end = self.lexemes[lexemes.end - 1].span.end;
        let entry = match kind {
            Kind::Word(_) if lexemes.len() == 1 => self.lexemes[lexemes.start].entry,
            _ => None,
        };
        self.out.push(Token {
            kind,
            span: start..end,
            entry,
        });
    }

    /// Reads what starts at lexeme `at`; the lexeme after it.
    fn next(&mut self, at: usize) -> usize {
        match self.lex(at) {
            Some(Lex::Digits(_)) => self.figure(at, at, false, None),
            Some(Lex::Sym(sign @ ('-' | '−' | '+'))) if self.starts_number(at) => {
                let negative = *sign != '+';
                match self.touching(at + 1) {
                    Some(Lex::Digits(_)) => self.figure(at, at + 1, negative, None),
                    // `-$20`
                    _ => {
                        let unit = self.sign_unit(at + 1);
                        self.figure(at, at + 2, negative, unit)
                    }
                }
            }
            Some(Lex::Sym(_)) if self.sign_unit(at).is_some() && self.number_follows(at) => {
                let unit = self.sign_unit(at);
                match self.touching(at + 1) {
                    // `$-20`
                    Some(Lex::Sym('-' | '−')) => self.figure(at, at + 2, true, unit),
                    _ => self.figure(at, at + 1, false, unit),
                }
            }
            Some(Lex::Word(word)) => self.word_at(at, word.clone()),
            Some(Lex::Super(digits)) => {
                // Superscripts are read as ASCII digits, which always parse.
                let value = Decimal::new(digits, "", 0);
                self.push(
                    Kind::Figure(Figure::Number {
                        value,
                        unit: None,
                        per: None,
                    }),
                    at..at + 1,
                );
                at + 1
            }
            Some(Lex::Numeric) => {
                let written = self.as_written(at).to_owned();
                self.push(Kind::Figure(Figure::AsWritten(written)), at..at + 1);
                at + 1
            }
            Some(Lex::Sym('.' | '!' | '?' | ';' | ':')) => {
                self.push(Kind::Break, at..at + 1);
                at + 1
            }
            _ => at + 1,
        }
    }

    /// Whether the sign at `at` belongs to a number: digits (or a currency
    /// sign and digits) touch it, and it does not stand between two runs
    /// (`5-10`, `A-12`).
    fn starts_number(&self, at: usize) -> bool {
        let free = at == 0
            || self.gap(at) != Some(Gap::None)
            || matches!(
                self.lex(at - 1),
                Some(Lex::Sym('(' | '[' | '{' | '"' | '“' | '\''))
            );
        let digits_follow = match self.touching(at + 1) {
            Some(Lex::Digits(_)) => true,
            Some(Lex::Sym(_)) => {
                self.sign_unit(at + 1).is_some()
                    && matches!(self.touching(at + 2), Some(Lex::Digits(_)))
            }
            _ => false,
        };
        free && digits_follow
    }

    /// Whether a number follows the currency sign at `at` (`$20`, `$ 20`,
    /// `$-20`).
    fn number_follows(&self, at: usize) -> bool {
        match self.lexemes.get(at + 1) {
            Some(Lexeme {
                lex: Lex::Digits(_),
                gap: Gap::None | Gap::Space,
                ..
            }) => true,
            Some(Lexeme {
                lex: Lex::Sym('-' | '−'),
                gap: Gap::None,
                ..
            }) => matches!(self.touching(at + 2), Some(Lex::Digits(_))),
            _ => false,
        }
    }

    /// The currency (or share) a sign at `at` names.
    fn sign_unit(&self, at: usize) -> Option<Unit> {
        let Some(Lex::Sym(c)) = self.lex(at) else {
            return None;
        };
        if let Some(name) = self.lexicon.currency_sign(*c) {
            return Some(Unit::Named(name));
        }
        if c.is_ascii() {
            // `$`, the one ASCII currency sign, is in every lexicon.
            return None;
        }
        use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
        (c.general_category() == GeneralCategory::CurrencySymbol).then_some(Unit::Sign(*c))
    }

    /// A word, or a code or currency code that starts with it.
    fn word_at(&mut self, at: usize, word: Cow<'t, str>) -> usize {
        // `B12`, `UA455`: letters and digits together.
        if matches!(self.touching(at + 1), Some(Lex::Digits(_))) {
            return self.code(at, at);
        }
        // `EUR 20`: a currency code before its amount.
        let digits_after_space = self.gap(at + 1) == Some(Gap::Space)
            && matches!(self.lex(at + 1), Some(Lex::Digits(_)));
        if digits_after_space && let Some(name) = self.entry(at).and_then(Word::currency) {
            return self.figure(at, at + 1, false, Some(Unit::Named(name)));
        }
        // A day of the week is a fact that can trade places with another
        // (`closed on Sundays, open on Saturdays`).
        if let Some(day) = weekday(&word) {
            self.push(Kind::Figure(Figure::Code(day.to_owned())), at..at + 1);
            return at + 1;
        }
        self.push(Kind::Word(word), at..at + 1);
        at + 1
    }

    /// A code from lexeme `from` (the figure starting at `start`): letters
    /// and digits while they touch.
    fn code(&mut self, start: usize, from: usize) -> usize {
        let mut code = String::new();
        let mut at = from;
        while let Some(Lex::Digits(run) | Lex::Word(run)) = self.lex(at) {
            if at != from && self.gap(at) != Some(Gap::None) {
                break;
            }
            code.push_str(run);
            at += 1;
        }
        self.push(Kind::Figure(Figure::Code(code)), start..at);
        at
    }

    /// Reads a figure whose digits are at `digits`, the figure starting at
    /// lexeme `start` (a sign or currency sign before it); the lexeme after.
    fn figure(&mut self, start: usize, digits: usize, negative: bool, unit: Option<Unit>) -> usize {
        if !matches!(self.lex(digits), Some(Lex::Digits(_))) {
            self.push(
                Kind::Figure(Figure::AsWritten(self.as_written(start).to_owned())),
                start..start + 1,
            );
            return start + 1;
        }
        if unit.is_none()
            && !negative
            && let Some(end) = self.date_or_time(digits)
        {
            return end;
        }
        self.number(start, digits, negative, unit)
    }

    /// An ISO date, a time of day, or a form of digits and `/` or `.`
    /// read no further.
    fn date_or_time(&mut self, at: usize) -> Option<usize> {
        let first = self.digits(at)?;
        let sep = |r: &Self, i: usize, c: char| r.touching(i) == Some(&Lex::Sym(c));
        let touching_digits = |r: &Self, i: usize| match r.touching(i) {
            Some(Lex::Digits(d)) => Some(d.as_ref()),
            _ => None,
        };
        // `2026-12-05`
        if first.len() == 4
            && sep(self, at + 1, '-')
            && sep(self, at + 3, '-')
            && let (Some(m), Some(d)) =
                (touching_digits(self, at + 2), touching_digits(self, at + 4))
        {
            let year: Option<u32> = first.parse().ok();
            let (month, day): (u8, u8) = (m.parse().ok()?, d.parse().ok()?);
            if (1..=12).contains(&month) && (1..=31).contains(&day) {
                self.push(Kind::Figure(Figure::Date { year, month, day }), at..at + 5);
                return Some(at + 5);
            }
        }
        // `18:40`, `18:40:05`, then `am` / `pm`.
        if first.len() <= 2 && sep(self, at + 1, ':') {
            let minutes = touching_digits(self, at + 2).filter(|m| m.len() == 2)?;
            let mut end = at + 3;
            let mut seconds = 0;
            if sep(self, end, ':')
                && let Some(s) = touching_digits(self, end + 1).filter(|s| s.len() == 2)
            {
                seconds = s.parse().ok()?;
                end += 2;
            }
            let (meridiem, after) = self.meridiem(end);
            return self.time(at, first, minutes, seconds, meridiem, after);
        }
        // `6.40 pm`, `6 pm`, `6pm`
        if first.len() <= 2 {
            if sep(self, at + 1, '.')
                && let Some(minutes) = touching_digits(self, at + 2).filter(|m| m.len() == 2)
                && let (Some(pm), after) = self.meridiem(at + 3)
            {
                return self.time(at, first, minutes, 0, Some(pm), after);
            }
            if let (Some(pm), after) = self.meridiem(at + 1) {
                return self.time(at, first, "00", 0, Some(pm), after);
            }
        }
        // `12/05/2026`, `5.12.2026`, `1/2`: read no further.
        let dotted = sep(self, at + 1, '.')
            && touching_digits(self, at + 2).is_some()
            && sep(self, at + 3, '.')
            && touching_digits(self, at + 4).is_some();
        if sep(self, at + 1, '/') && touching_digits(self, at + 2).is_some() || dotted {
            let mut end = at + 1;
            while matches!(self.touching(end), Some(Lex::Sym('/' | '.')))
                && touching_digits(self, end + 1).is_some()
            {
                end += 2;
            }
            let written =
                self.text[self.lexemes[at].span.start..self.lexemes[end - 1].span.end].to_owned();
            self.push(Kind::Figure(Figure::AsWritten(written)), at..end);
            return Some(end);
        }
        None
    }

    /// `am` / `pm` at lexeme `at` (`pm`, `PM`, `p.m.`, `p.m`): whether
    /// it is `pm`, and the lexeme after it.
    fn meridiem(&self, at: usize) -> (Option<bool>, usize) {
        if !matches!(self.gap(at), Some(Gap::None | Gap::Space)) {
            return (None, at);
        }
        for (letter, pm) in self.lexicon.meridiem {
            let Some(word) = self.word(at) else { break };
            if word.strip_prefix(letter) == Some("m") {
                return (Some(pm), at + 1);
            }
            if word == letter
                && self.touching(at + 1) == Some(&Lex::Sym('.'))
                && self.touching(at + 2) == Some(&Lex::Word("m".into()))
            {
                let end = if self.touching(at + 3) == Some(&Lex::Sym('.')) {
                    at + 4
                } else {
                    at + 3
                };
                return (Some(pm), end);
            }
        }
        (None, at)
    }

    fn time(
        &mut self,
        start: usize,
        hours: &str,
        minutes: &str,
        seconds: u32,
        pm: Option<bool>,
        end: usize,
    ) -> Option<usize> {
        let (mut hours, minutes): (u32, u32) = (hours.parse().ok()?, minutes.parse().ok()?);
        if minutes > 59 || seconds > 59 {
            return None;
        }
        match pm {
            Some(pm) if (1..=12).contains(&hours) => hours = hours % 12 + if pm { 12 } else { 0 },
            Some(_) => return None,
            None if hours > 24 => return None,
            None => {}
        }
        let value = hours * 3600 + minutes * 60 + seconds;
        self.push(Kind::Figure(Figure::Time(value)), start..end);
        Some(end)
    }

    /// A number from the digits at `at`: grouping, fraction, exponent,
    /// power, magnitude, then what it measures.
    fn number(&mut self, start: usize, at: usize, negative: bool, unit: Option<Unit>) -> usize {
        let first = self.digits(at).unwrap_or_default();
        let mut integer = Cow::Borrowed(first);
        let mut end = at + 1;
        // Grouped thousands: `1,000`, `1'000`, `1 000`.
        if first.len() <= 3 {
            let mut spaced = None;
            loop {
                let group = |r: &Self, i: usize| match r.lex(i) {
                    Some(Lex::Digits(d)) if d.len() == 3 => Some(d.as_ref()),
                    _ => None,
                };
                if matches!(self.touching(end), Some(Lex::Sym(',' | '\'' | '’')))
                    && self.gap(end + 1) == Some(Gap::None)
                    && spaced != Some(true)
                    && let Some(g) = group(self, end + 1)
                {
                    integer.to_mut().push_str(g);
                    end += 2;
                    spaced = Some(false);
                } else if self.gap(end) == Some(Gap::Space)
                    && spaced != Some(false)
                    && let Some(g) = group(self, end)
                    && !self.number_goes_on_oddly(end + 1)
                {
                    integer.to_mut().push_str(g);
                    end += 1;
                    spaced = Some(true);
                } else {
                    break;
                }
            }
        }
        // A comma not grouping thousands (`7,5`, `1,2,3`): ambiguous.
        if matches!(self.touching(end), Some(Lex::Sym(',')))
            && matches!(self.touching(end + 1), Some(Lex::Digits(_)))
        {
            while matches!(self.touching(end), Some(Lex::Sym(',' | '.')))
                && matches!(self.touching(end + 1), Some(Lex::Digits(_)))
            {
                end += 2;
            }
            return self.as_written_from(start, end);
        }
        let mut fraction = "";
        if self.touching(end) == Some(&Lex::Sym('.'))
            && let Some(Lex::Digits(f)) = self.touching(end + 1)
        {
            fraction = f;
            end += 2;
        }
        // `007`, `02134`: a code, its zeros part of it.
        if fraction.is_empty() && integer == first && first.len() > 1 && first.starts_with('0') {
            return self.code(start, at);
        }
        let mut exponent = 0i64;
        if let Some((e, after)) = self.exponent(end) {
            exponent = e;
            end = after;
        } else if let Some(Lex::Word(_)) = self.touching(end) {
            return self.attached(start, at, end, negative, unit, &integer, fraction);
        }
        let mut value = Decimal::new(&integer, fraction, exponent);
        if let Some(Lex::Super(power)) = self.touching(end).cloned() {
            end += 1;
            match power_of(&value, &power) {
                Some(v) => value = v,
                None => {
                    return self.as_written_from(start, end);
                }
            }
        }
        self.measured(start, end, value, negative, unit)
    }

    /// Whether the digits at `at` go on as a decimal or time (so a group
    /// before them is no thousands group: `2 3.5`).
    fn number_goes_on_oddly(&self, at: usize) -> bool {
        matches!(self.touching(at), Some(Lex::Sym('.' | ':' | ',' | '/')))
            && matches!(self.touching(at + 1), Some(Lex::Digits(_)))
    }

    fn as_written_from(&mut self, start: usize, end: usize) -> usize {
        let written =
            self.text[self.lexemes[start].span.start..self.lexemes[end - 1].span.end].to_owned();
        self.push(Kind::Figure(Figure::AsWritten(written)), start..end);
        end
    }

    /// `e+20`, `E-3` touching a number: the power of ten, and the lexeme after.
    fn exponent(&self, at: usize) -> Option<(i64, usize)> {
        let Some(Lex::Word(e)) = self.touching(at) else {
            return None;
        };
        if e != "e" {
            return None;
        }
        let (negative, digits_at) = match self.touching(at + 1) {
            Some(Lex::Sym('+')) => (false, at + 2),
            Some(Lex::Sym('-' | '−')) => (true, at + 2),
            _ => (false, at + 1),
        };
        let Some(Lex::Digits(digits)) = self.touching(digits_at) else {
            return None;
        };
        if matches!(self.touching(digits_at + 1), Some(Lex::Word(_))) {
            return None;
        }
        Some((Decimal::exponent_of(digits, negative)?, digits_at + 1))
    }

    /// Letters touching a number: a magnitude (`1k`), an ordinal (`2nd`),
    /// a unit (`5km`), or else a code (`12E`).
    #[allow(clippy::too_many_arguments)]
    fn attached(
        &mut self,
        start: usize,
        at: usize,
        end: usize,
        negative: bool,
        unit: Option<Unit>,
        integer: &str,
        fraction: &str,
    ) -> usize {
        let word = self.word(end).unwrap_or_default().to_owned();
        let written = self.as_written(end).to_owned();
        let ends = !matches!(self.touching(end + 1), Some(Lex::Digits(_) | Lex::Word(_)));
        let value = Decimal::new(integer, fraction, 0);
        if ends {
            if let Some(power) = self.lexicon.magnitude_suffix(&written) {
                return self.measured(start, end + 1, value.scaled(power), negative, unit);
            }
            // After a currency, `m` and `MM` are millions (`£5m`), not metres.
            if let Some(power) = unit.and_then(|u| self.currency_magnitude(u, &written)) {
                return self.measured(start, end + 1, value.scaled(power), negative, unit);
            }
            if fraction.is_empty() && self.lexicon.ordinal_suffixes.contains(&word.as_str()) {
                return self.measured(start, end + 1, value, negative, unit);
            }
            if let Some(name) = self.entry(end).and_then(Word::measure) {
                let unit = unit.or(Some(Unit::Named(name)));
                return self.measured_as(start, end + 1, value, negative, unit);
            }
        }
        self.code(start, at)
    }

    /// The power of ten a suffix stands for after a currency amount.
    fn currency_magnitude(&self, unit: Unit, suffix: &str) -> Option<i64> {
        let currency =
            match unit {
                Unit::Named(name) => {
                    self.lexicon.currency_codes.iter().any(|(_, n)| *n == name)
                        || self.lexicon.currency_signs.iter().any(|(c, n)| {
                            *n == name && !c.is_alphabetic() && *c != '%' && *c != '‰'
                        })
                }
                Unit::Sign(_) => true,
            };
        let power = match suffix {
            "m" | "mn" | "MM" | "mm" => 6,
            "b" | "B" | "bn" | "BN" => 9,
            _ => return None,
        };
        currency.then_some(power)
    }

    /// A number and what it measures: a unit, currency or `%` after it
    /// (or the one before it), magnitudes after it (`1.5 million`).
    fn measured(
        &mut self,
        start: usize,
        end: usize,
        value: Decimal,
        negative: bool,
        unit: Option<Unit>,
    ) -> usize {
        let (value, after) = self.magnitudes(end, value);
        self.measured_as(start, after, value, negative, unit)
    }

    fn measured_as(
        &mut self,
        start: usize,
        mut end: usize,
        value: Decimal,
        negative: bool,
        mut unit: Option<Unit>,
    ) -> usize {
        if let Some((after_unit, after)) = self.unit_after(end) {
            unit = unit.or(Some(after_unit));
            end = after;
        }
        let mut per = None;
        if let Some((rate, after)) = self.rate_after(end) {
            per = Some(rate);
            end = after;
        }
        let negative = negative || self.minus_word_before(start);
        let value = if negative { value.negated() } else { value };
        self.push(
            Kind::Figure(Figure::Number { value, unit, per }),
            start..end,
        );
        end
    }

    fn magnitudes(&self, mut at: usize, mut value: Decimal) -> (Decimal, usize) {
        while matches!(self.gap(at), Some(Gap::Space | Gap::None))
            && let Some(power) = self.entry(at).and_then(Word::magnitude)
        {
            value = value.scaled(power);
            at += 1;
        }
        (value, at)
    }

    /// What the number ending before lexeme `at` measures, and the lexeme
    /// after it.
    fn unit_after(&self, at: usize) -> Option<(Unit, usize)> {
        let near = matches!(self.gap(at), Some(Gap::None | Gap::Space));
        if !near {
            return None;
        }
        // A sign before another number is that number's (`0 $1`).
        if let Some(unit) = self.sign_unit(at) {
            return (!self.number_follows(at)).then_some((unit, at + 1));
        }
        // `3-hour`
        let at = if self.touching(at) == Some(&Lex::Sym('-'))
            && matches!(self.touching(at + 1), Some(Lex::Word(_)))
        {
            at + 1
        } else {
            at
        };
        let word = self.word(at)?;
        for (first, second, name) in self.lexicon.unit_pairs {
            if word == *first && self.word(at + 1) == Some(second) {
                return Some((Unit::Named(name), at + 2));
            }
        }
        let name = self.entry(at).and_then(Word::measure)?;
        Some((Unit::Named(name), at + 1))
    }

    /// `a day`, `per month`, `/night` after a number and its unit: what
    /// the rate is per, and the lexeme after it.
    fn rate_after(&self, at: usize) -> Option<(&'static str, usize)> {
        let by = match (self.lex(at)?, self.gap(at)?) {
            (Lex::Sym('/'), Gap::None) => true,
            (Lex::Word(w), Gap::None | Gap::Space) => self.lexicon.rate_words.contains(&w.as_ref()),
            _ => false,
        };
        if !by {
            return None;
        }
        let name = self.entry(at + 1).and_then(Word::unit)?;
        Some((name, at + 2))
    }

    /// Whether `minus` (or `negative`) stands right before lexeme `at`.
    fn minus_word_before(&self, at: usize) -> bool {
        at > 0
            && self.gap(at) != Some(Gap::None)
            && self
                .word(at - 1)
                .is_some_and(|w| self.lexicon.minus_words.contains(&w))
    }

    /// A number written in words, with what it measures.
    fn number_words(&mut self, words: &NumberWords) -> usize {
        let Some(value) = Decimal::parse(&words.digits) else {
            self.push(
                Kind::Word(Cow::Owned(
                    self.word(words.start).unwrap_or_default().to_owned(),
                )),
                words.start..words.start + 1,
            );
            return words.start + 1;
        };
        // `twenty dollars`, `three hours`, `minus twenty`
        self.measured(words.start, words.end, value, false, None)
    }
}

/// The day of the week a word names (`sunday`, `sundays`), if any.
fn weekday(word: &str) -> Option<&'static str> {
    const DAYS: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let singular = word.strip_suffix('s').unwrap_or(word);
    DAYS.iter().find(|day| **day == singular).copied()
}

/// `base^power` exactly, when small enough to write out.
fn power_of(base: &Decimal, power: &str) -> Option<Decimal> {
    let power: u32 = power.parse().ok().filter(|p| *p <= 64)?;
    let base = u128::from(base.as_u32()?);
    let value = base.checked_pow(power)?;
    Decimal::parse(&value.to_string())
}
