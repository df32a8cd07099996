package demomodel

import (
	"regexp"
	"strings"
)

// The app's starters are translated, so the demo model must understand its
// own phrases in every UI language: intent words of each language are
// mapped to the English cue the rules match on. Keep in step with the
// starters in frontend/src/i18n.
var cues = []struct {
	words []string
	cue   string
}{
	{[]string{"几点", "时间", "日期", "今天", "現在幾點", "時間"}, "time"},
	{[]string{"计算", "算一下", "計算"}, "calc"},
	{[]string{"思考", "推理", "一步一步"}, "think"},
	{[]string{"慢速", "长故事", "長故事", "故事"}, "slow"},
	{[]string{"脚本", "代码", "腳本", "程式"}, "script"},
	{[]string{"文件", "工作区", "笔记", "檔案"}, "files"},
	{[]string{"断开", "中断连接"}, "drop"},
	{[]string{"挂起", "卡住", "无响应"}, "hang"},
	{[]string{"循环", "重复调用"}, "loop"},
	{[]string{"格式错误", "损坏的调用", "坏的调用"}, "broken"},
}

// "错误 500", "错误500", "錯誤 429": a simulated error in Chinese.
var errorCue = regexp.MustCompile(`(?:错误|錯誤|报错)\s*(\d{3})`)

// intent is the last user message in lower case with the English cues of
// any other language's intent words added, for the rules to match.
func intent(text string) string {
	last := strings.ToLower(text)
	var add []string
	for _, m := range errorCue.FindAllStringSubmatch(last, -1) {
		add = append(add, "error "+m[1])
	}
	for _, c := range cues {
		for _, w := range c.words {
			if strings.Contains(last, w) {
				add = append(add, c.cue)
				break
			}
		}
	}
	if len(add) == 0 {
		return last
	}
	return last + " " + strings.Join(add, " ")
}
