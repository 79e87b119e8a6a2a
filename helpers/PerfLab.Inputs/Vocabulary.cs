namespace PerfLab.Inputs;

/// <summary>
/// The words of the generated prose, most frequent first, with Zipf-Mandelbrot weights computed in
/// integers: the word of rank r (from 1) weighs 100,000,000 / (10 r + 27), i.e. 1 / (r + 2.7). With 443
/// words that makes "the" 5.5 % of the words drawn from here and "a" 2.6 %, about as in English prose.
/// None of them is a day name, a name of <see cref="ProseWriter"/>'s table, "something" or "hello"
/// (those come at their own rates).
/// </summary>
internal static class Vocabulary
{
    /// <summary>The words, by rank.</summary>
    public static readonly string[] Words =
    [
        "the", "and", "of", "to", "a", "I", "in", "was", "he", "it", "that", "his", "you", "with", "had", "for", "as",
        "on", "but", "not", "is", "at", "my", "be", "him", "they", "me", "her", "she", "so", "all", "said", "there",
        "by", "we", "from", "what", "them", "were", "this", "out", "one", "up", "would", "or", "no", "have", "then",
        "when", "could", "an", "if", "do", "about", "been", "did", "down", "into", "got", "over", "more", "now",
        "like", "went", "come", "time", "know", "see", "just", "their", "old", "which", "made", "way", "little",
        "back", "who", "good", "get", "go", "only", "man", "too", "our", "some", "any", "your", "off", "before",
        "long", "will", "are", "well", "after", "here", "its", "can", "thought", "say", "never", "other", "again",
        "night", "day", "much", "away", "through", "right", "how", "place", "big", "where", "take", "most", "upon",
        "around", "us", "saw", "told", "done", "looked", "began", "don't", "it's", "I'm", "can't", "didn't", "ain't",
        "won't", "wasn't", "couldn't", "I'll", "that's", "there's", "I'd", "because", "every", "first", "last",
        "things", "people", "house", "town", "river", "boat", "raft", "water", "shore", "island", "woods", "along",
        "across", "under", "while", "still", "behind", "once", "ever", "head", "hand", "eyes", "face", "door", "road",
        "fire", "light", "dark", "morning", "evening", "mother", "father", "aunt", "boys", "girl", "children",
        "friend", "widow", "judge", "doctor", "captain", "king", "duke", "stranger", "folks", "crowd", "body",
        "heart", "mind", "voice", "word", "words", "name", "thing", "nothing", "everything", "anything", "nobody",
        "somebody", "everybody", "knew", "took", "found", "gave", "heard", "felt", "left", "kept", "stood", "sat",
        "ran", "walked", "turned", "asked", "answered", "cried", "laughed", "says", "tell", "knows", "think", "want",
        "wanted", "need", "seen", "going", "coming", "reckon", "reckoned", "set", "let", "put", "give", "keep",
        "leave", "stay", "try", "tried", "call", "called", "hear", "feel", "seem", "seemed", "mean", "meant",
        "believe", "allowed", "suppose", "guess", "wish", "reading", "writing", "school", "church", "store", "money",
        "dollars", "cents", "gold", "book", "letter", "paper", "story", "talk", "talking", "fight", "trouble", "luck",
        "game", "cave", "treasure", "bread", "meat", "coffee", "pipe", "candle", "fence", "paint", "brush", "cat",
        "dog", "horse", "cow", "chicken", "snake", "bird", "fish", "tree", "trees", "grass", "leaves", "sky", "sun",
        "moon", "stars", "wind", "rain", "storm", "fog", "smoke", "steam", "wheel", "deck", "cabin", "landing",
        "bank", "bend", "current", "channel", "pilot", "mate", "crew", "passenger", "street", "window", "table",
        "chair", "bed", "floor", "wall", "roof", "yard", "garden", "field", "farm", "village", "country", "world",
        "war", "peace", "law", "truth", "lie", "lies", "joke", "sermon", "prayer", "ghost", "witch", "devil", "angel",
        "heaven", "dead", "alive", "young", "new", "great", "small", "large", "short", "high", "low", "deep", "wide",
        "soft", "hard", "cold", "warm", "hot", "dry", "wet", "quiet", "loud", "slow", "quick", "easy", "rich", "poor",
        "happy", "glad", "sorry", "afraid", "tired", "hungry", "sick", "strange", "true", "real", "whole", "half",
        "full", "empty", "black", "white", "red", "blue", "green", "gray", "yellow", "brown", "three", "four", "five",
        "ten", "hundred", "thousand", "many", "few", "less", "least", "enough", "almost", "always", "often",
        "sometimes", "soon", "already", "yet", "even", "quite", "rather", "pretty", "mighty", "awful", "considerable",
        "powerful", "tolerable", "very", "perhaps", "maybe", "indeed", "besides", "however", "anyway", "somehow",
        "toward", "towards", "against", "between", "among", "beside", "beyond", "within", "without", "during",
        "since", "until", "above", "below", "inside", "outside", "near", "far",
    ];

    /// <summary>Cumulative weights: word i is drawn when a number in [0, Total) is below Cumulative[i] and not below Cumulative[i - 1].</summary>
    private static readonly long[] Cumulative = BuildCumulative();

    /// <summary>The sum of the weights.</summary>
    public static long Total => Cumulative[^1];

    /// <summary>The word a uniform draw in [0, <see cref="Total"/>) lands on.</summary>
    public static string Pick(ulong draw)
    {
        return Words[CumulativeWeights.IndexOf(Cumulative, (long)(draw % (ulong)Total))];
    }

    private static long[] BuildCumulative()
    {
        var cumulative = new long[Words.Length];
        long sum = 0;
        for (var i = 0; i < Words.Length; i++)
        {
            var rank = i + 1;
            sum += 100_000_000L / ((10L * rank) + 27L);
            cumulative[i] = sum;
        }

        return cumulative;
    }
}
